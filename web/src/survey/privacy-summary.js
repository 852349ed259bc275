import { el } from '../shared/dom.js';
import { formatEpsilon, mechanismShortName } from '../shared/format.js';
import { surveyKind } from './kinds.js';

// The short explanation of what leaves the device, with each question's
// privacy budget and the survey's total (sequential composition, computed by
// the core). `privacy` is core.parseSurvey(definition).
export function renderPrivacySummary(survey, privacy) {
  return el('section', { class: 'card privacy', 'aria-labelledby': 'privacy-heading', testid: 'privacy-summary' }, [
    el('h2', { id: 'privacy-heading', text: 'What leaves this device' }),
    el('p', {
      text:
        'Your answers never leave this device. Before sending, each answer is randomised here, in your browser; ' +
        'only the randomised report is sent, and you will see it below before anything leaves. ' +
        'A report could plausibly have come from other answers; the privacy budget ε bounds how much it can reveal ' +
        '(smaller means more deniable).',
    }),
    el('ul', { class: 'privacy-list' }, survey.questions.map((question, index) =>
      renderQuestionPrivacy(question, index, privacy.questions[index]))),
    el('p', { class: 'privacy-total', testid: 'total-epsilon' }, [
      el('strong', { text: 'Whole survey: ' }),
      totalText(privacy.total_epsilon),
    ]),
  ]);
}

// A question without a formal ε says why, in the respondent's words (its kind knows).
function renderQuestionPrivacy(question, index, questionPrivacy) {
  const epsilon = questionPrivacy.privacy?.epsilon ?? null;
  return el('li', { testid: `privacy-${question.id}` }, [
    el('span', { class: 'privacy-question', text: `Question ${index + 1}: ` }),
    el('strong', { text: formatEpsilon(epsilon) }),
    ` (${mechanismShortName(mechanismName(question))})`,
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
