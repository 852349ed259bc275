import { surveyKind } from './kinds.js';

// The questions of the survey page, each drawn by its kind
// (kinds/<type>/survey.js). A kind names its first answer control
// "answer-<index>", so the page can move focus to an unanswered question.
export function renderQuestion(question, index) {
  return surveyKind(question.type).renderFieldset(question, index);
}

// Reads every question's answer through its kind. The result stays in memory
// only: it is handed to the core and never stored, logged or sent.
export function readAnswers(form, survey) {
  const answers = {};
  const unanswered = [];
  survey.questions.forEach((question, index) => {
    const value = surveyKind(question.type).readAnswer(form, question, index);
    if (value === null) unanswered.push(index);
    else answers[question.id] = value;
  });
  return { answers, unanswered };
}

// What to add to "Please answer every question" for these unanswered
// questions: each kind's hint once (e.g. that a number must lie in its range).
export function unansweredHints(survey, unanswered) {
  const hints = unanswered.map((index) => surveyKind(survey.questions[index].type).unansweredHint).filter(Boolean);
  return [...new Set(hints)];
}
