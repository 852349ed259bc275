import { pageModules } from '../kinds/registry.js';

// The dashboard's module of each question kind (kinds/<type>/dashboard.js).
export const dashboardKind = pageModules('dashboard', import.meta.glob('../kinds/*/dashboard.js', { eager: true }));
