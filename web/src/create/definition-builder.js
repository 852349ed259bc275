// Turns the creation form's values into a survey definition (common.md
// "Formats"). No validation here: the core's parseSurvey is the judge, and
// its message is shown next to the preview.

export const SURVEY_FORMAT = 'deniable.survey/v1';

export function splitOptions(text) {
  return text.split('\n').map((line) => line.trim()).filter((line) => line.length > 0);
}

// Empty or unreadable number fields are left out, so the core names them as missing.
function numberOrUndefined(text) {
  if (String(text).trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

export function buildMechanism(question) {
  const mechanism = { name: question.mechanism };
  if (question.mechanism === 'negative') {
    if (!question.pureNegative) mechanism.epsilon = numberOrUndefined(question.epsilon);
    mechanism.reported_options = numberOrUndefined(question.reportedOptions);
  } else {
    mechanism.epsilon = numberOrUndefined(question.epsilon);
  }
  return mechanism;
}

// RVNS takes its shape (d, k, window mode, γ); the others take ε. A γ of 0
// is left out: that is the published RVNS (no formal epsilon).
export function buildNumericMechanism(question) {
  const name = question.numericMechanism;
  if (name !== 'rvns') return { name, epsilon: numberOrUndefined(question.epsilon) };
  const mechanism = {
    name,
    window: numberOrUndefined(question.window),
    values: numberOrUndefined(question.values),
    window_mode: question.windowMode,
  };
  const gamma = numberOrUndefined(question.uniformProbability);
  if (gamma !== 0) mechanism.uniform_probability = gamma;
  return mechanism;
}

function buildNumericQuestion(question) {
  const unit = question.unit.trim();
  return {
    id: question.id.trim(),
    text: question.text.trim(),
    type: 'numeric',
    range: [numberOrUndefined(question.low), numberOrUndefined(question.high)],
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
