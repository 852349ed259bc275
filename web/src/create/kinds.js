import { pageModules } from '../kinds/registry.js';

// The creation page's module of each question kind (kinds/<type>/create.js).
export const createKind = pageModules('create', import.meta.glob('../kinds/*/create.js', { eager: true }));
