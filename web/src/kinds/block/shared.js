// What the block kind's page modules share (no page imports another page's module).

// The survey format a one-question survey for the core is written in
// (the same as create/definition-builder.js SURVEY_FORMAT).
export const SURVEY_FORMAT = 'deniable.survey/v1';

// The mechanism's name in words.
export const MECHANISM_LABEL = 'PMOUE (optimised unary encoding per attribute, personalised budgets)';
