import { decimalOrUndefined } from '../shared/number-input.js';

// Turns the creation form's values into a survey definition (common.md
// "Formats"). No validation here: the core's parseSurvey is the judge, and
// its message is shown next to the preview.

export const SURVEY_FORMAT = 'deniable.survey/v1';

export function splitOptions(text) {
  return text.split('\n').map((line) => line.trim()).filter((line) => line.length > 0);
}

// Number fields are read by the shared parser ("1,5" is 1.5). An empty one is
// left out, so the core names it as missing; an unreadable one is kept as its
// text, so the core refuses it naming the field (never dropped: an unreadable
// γ must not quietly turn into the published RVNS). The field itself says
// what is wrong with its text.
function readNumber(text, whole) {
  const trimmed = String(text ?? '').trim();
  if (trimmed === '') return undefined;
  return decimalOrUndefined(trimmed, whole) ?? trimmed;
}
const readDecimal = (text) => readNumber(text, false);
const readWhole = (text) => readNumber(text, true);

export function buildMechanism(question) {
  const mechanism = { name: question.mechanism };
  if (question.mechanism === 'negative') {
    if (!question.pureNegative) mechanism.epsilon = readDecimal(question.epsilon);
    mechanism.reported_options = readWhole(question.reportedOptions);
  } else {
    mechanism.epsilon = readDecimal(question.epsilon);
  }
  return mechanism;
}

// RVNS takes its shape (d, k, window mode, γ); the others take ε. A γ of 0
// is left out: that is the published RVNS (no formal epsilon).
export function buildNumericMechanism(question) {
  const name = question.numericMechanism;
  if (name !== 'rvns') return { name, epsilon: readDecimal(question.epsilon) };
  const mechanism = {
    name,
    window: readDecimal(question.window),
    values: readWhole(question.values),
    window_mode: question.windowMode,
  };
  const gamma = readDecimal(question.uniformProbability);
  if (gamma !== 0) mechanism.uniform_probability = gamma;
  return mechanism;
}

function buildNumericQuestion(question) {
  const unit = question.unit.trim();
  return {
    id: question.id.trim(),
    text: question.text.trim(),
    type: 'numeric',
    range: [readDecimal(question.low), readDecimal(question.high)],
    ...(unit ? { unit } : {}),
    mechanism: buildNumericMechanism(question),
  };
}

export function buildQuestion(question) {
  if (question.type === 'numeric') return buildNumericQuestion(question);
  return {
    id: question.id.trim(),
    text: question.text.trim(),
    type: 'categorical',
    options: splitOptions(question.options),
    mechanism: buildMechanism(question),
  };
}

export function buildDefinition(meta, questions) {
  return {
    format: SURVEY_FORMAT,
    id: meta.id.trim(),
    version: 1,
    title: meta.title.trim(),
    description: meta.description.trim(),
    results: meta.results,
    access: meta.access,
    questions: questions.map(buildQuestion),
  };
}
