import { el } from '../shared/dom.js';
import { isCentral } from '../shared/central.js';
import { formatEpsilon, mechanismShortName } from '../shared/format.js';
import { hasCentral } from './confidential.js';
import { surveyKind } from './kinds.js';

// The short explanation of what leaves the device, with each question's
// privacy budget and the survey's total (sequential composition, computed by
// the core). `privacy` is core.parseSurvey(definition). A survey with
// questions answered in confidence says which answers leave as given (the
// notice above it, survey/confidential.js, lists them).
export function renderPrivacySummary(survey, privacy) {
  return el('section', { class: 'card privacy', 'aria-labelledby': 'privacy-heading', testid: 'privacy-summary' }, [
    el('h2', { id: 'privacy-heading', text: 'What leaves this device' }),
    el('p', { text: hasCentral(survey, privacy.questions) ? MIXED_INTRODUCTION : LOCAL_INTRODUCTION }),
    el('ul', { class: 'privacy-list' }, survey.questions.map((question, index) =>
      renderQuestionPrivacy(question, index, privacy.questions[index]))),
    el('p', { class: 'privacy-total', testid: 'total-epsilon' }, [
      el('strong', { text: 'Whole survey: ' }),
      totalText(privacy.total_epsilon),
    ]),
  ]);
}

const LOCAL_INTRODUCTION =
  'Your answers never leave this device. Before sending, each answer is randomised here, in your browser; ' +
  'only the randomised report is sent, and you will see it below before anything leaves. ' +
  'A report could plausibly have come from other answers; the privacy budget ε bounds how much it can reveal ' +
  '(smaller means more deniable).';

const MIXED_INTRODUCTION =
  'Answers to questions randomised on your device never leave it: only a randomised report is sent, and ε bounds how much it can reveal. ' +
  'Answers given in confidence are sent as you give them; for those, ε bounds how much everything published about the question can reveal about your answer. ' +
  'You will see your whole report below before anything leaves (smaller ε means more private).';

// A question without a formal ε says why, in the respondent's words (its kind knows).
function renderQuestionPrivacy(question, index, questionPrivacy) {
  const epsilon = questionPrivacy.privacy?.epsilon ?? null;
  const central = isCentral(question) || isCentral(questionPrivacy);
  return el('li', { testid: `privacy-${question.id}` }, [
    el('span', { class: 'privacy-question', text: `Question ${index + 1}: ` }),
    el('strong', { text: formatEpsilon(epsilon) }),
    central ? ' (answered in confidence: the budget of everything published about it)' : ` (${mechanismShortName(mechanismName(question))})`,
    epsilon === null ? el('span', { class: 'privacy-note', text: ` — ${surveyKind(question.type).noEpsilonExplanation(question)}` }) : null,
  ]);
}

function totalText(totalEpsilon) {
  if (totalEpsilon === null || totalEpsilon === undefined) {
    return 'no formal epsilon, because at least one question has none.';
  }
  return `${formatEpsilon(totalEpsilon)} (the questions' budgets add up).`;
}

// A definition's mechanism is {name, ...}, or just its name (a model's "mechanism": "duchi").
function mechanismName(question) {
  return typeof question.mechanism === 'string' ? question.mechanism : question.mechanism.name;
}
