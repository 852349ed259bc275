// A question's condition ("show_if", core/survey/conditions.h): shown only
// when an earlier question asked openly has given one of the named answers.
// The page decides what to show as the respondent answers, before the
// client core has arrived, so the test is here too; it is the core's
// ConditionHolds word for word, and tests/wasm/conditions.test.mjs checks
// both on the same cases (the core also refuses, when the report is
// prepared, an answer to a question it finds hidden).
//
// `answers`: {<question id>: answer as given} (an option index, a number).
// An absent or null answer (the question skipped, or itself hidden) hides.
export function questionShown(survey, question, answers) {
  const condition = question.show_if;
  if (!condition) return true;
  const answer = answers?.[condition.question];
  if (answer === undefined || answer === null) return false;
  if (Array.isArray(condition.any_of)) {
    const named = survey.questions.find((candidate) => candidate.id === condition.question);
    return Number.isInteger(answer) && answer >= 0 && condition.any_of.includes(named?.options?.[answer]);
  }
  if (typeof answer !== 'number' || !Number.isFinite(answer)) return false;
  return (condition.at_least === undefined || answer >= condition.at_least) &&
    (condition.at_most === undefined || answer <= condition.at_most);
}

// The indices of the questions hidden by these answers, in order.
export function hiddenQuestions(survey, answers) {
  return survey.questions.flatMap((question, index) => (questionShown(survey, question, answers) ? [] : [index]));
}
