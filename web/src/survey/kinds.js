import { pageModules } from '../kinds/registry.js';

// The survey page's module of each question kind (kinds/<type>/survey.js).
export const surveyKind = pageModules('survey', import.meta.glob('../kinds/*/survey.js', { eager: true }));
