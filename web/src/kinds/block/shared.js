// What the block kind's page modules share (no page imports another page's module).
import { t } from './survey-texts.js';

// The survey format a one-question survey for the core is written in
// (the same as create/definition-builder.js SURVEY_FORMAT).
export const SURVEY_FORMAT = 'deniable.survey/v1';

// The mechanism's name in words: in English for the dashboard and the
// creation page; in the page's language on the survey page (blockMechanismLabel).
export const MECHANISM_LABEL = t.dictionaries.en.mechanismLabel;
export const blockMechanismLabel = () => t('mechanismLabel');
