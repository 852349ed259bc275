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

export function buildQuestion(question) {
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
