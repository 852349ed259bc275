import { el } from '../shared/dom.js';
import { t } from './texts.js';
import { isCentral } from '../central/trust.js';
import { formatEpsilon, mechanismShortName } from '../shared/format.js';
import { hasCentral } from '../central/survey.js';
import { isOpen } from '../shared/open.js';
import { hasOpen } from './open.js';
import { surveyKind } from './kinds.js';

// In the place of the summary until the core has arrived (the questions are
// already there to answer): a plain status; `error`, when it could not be
// loaded, says so instead.
export function renderPrivacyPending(error = null) {
  return el('section', { class: 'card privacy', 'aria-labelledby': 'privacy-heading', testid: 'privacy-pending' }, [
    el('h2', { id: 'privacy-heading', text: t('privacyHeading') }),
    error
      ? el('p', { class: 'notice notice-error', role: 'alert', testid: 'protection-failed', text: t('protectionFailed', error.message) })
      : el('p', { class: 'status', role: 'status', text: t('preparingProtection') }),
  ]);
}

// The short explanation of what leaves the device, with each question's
// privacy budget and the survey's total (sequential composition, computed by
// the core). `privacy` is core.parseSurvey(definition). A survey with
// questions answered in confidence says which answers leave as given (the
// notice above it, central/survey.js, lists them).
export function renderPrivacySummary(survey, privacy) {
  return el('section', { class: 'card privacy', 'aria-labelledby': 'privacy-heading', testid: 'privacy-summary' }, [
    el('h2', { id: 'privacy-heading', text: t('privacyHeading') }),
    el('p', { text: introduction(survey, privacy) }),
    // Asked openly: what is not protected, and that the randomised answers keep their ε.
    hasOpen(survey, privacy.questions) ? el('p', { class: 'privacy-open', testid: 'privacy-open-statement', text: t('privacyOpenStatement') }) : null,
    el('ul', { class: 'privacy-list' }, survey.questions.map((question, index) =>
      renderQuestionPrivacy(question, index, privacy.questions[index]))),
    // The privacy budgets (ε), mechanism names and the total: for readers who want them.
    el('details', { class: 'privacy-technical', testid: 'privacy-technical' }, [
      el('summary', { text: t('technicalDetails') }),
      el('p', { class: 'hint', text: t('technicalIntroduction') }),
      el('ul', { class: 'privacy-list' }, survey.questions.map((question, index) =>
        el('li', {}, renderQuestionTechnical(question, index, privacy.questions[index])))),
      el('p', { class: 'privacy-total' }, [
        el('strong', { text: t('wholeSurvey') }),
        el('span', { testid: 'total-epsilon', text: totalText(privacy.total_epsilon, hasOpen(survey, privacy.questions)) }),
      ]),
    ]),
  ]);
}

// Every answer randomised on the device; some in confidence; or some asked
// openly (their statement follows) with the others randomised.
function introduction(survey, privacy) {
  if (hasCentral(survey, privacy.questions)) return t('privacyMixed');
  return hasOpen(survey, privacy.questions) ? t('privacyRandomised') : t('privacyLocal');
}

// What is sent for the question, in plain words (its kind's privacyInWords
// with the core's summary, when it has one).
function renderQuestionPrivacy(question, index, questionPrivacy) {
  const central = isCentral(question) || isCentral(questionPrivacy);
  const inWords = surveyKind(question.type).privacyInWords;
  let words;
  if (isOpen(question) || isOpen(questionPrivacy)) words = t('openWords');
  else if (central) words = t('centralWords');
  else words = (typeof inWords === 'function' ? inWords(question, questionPrivacy) : null) ?? t('randomisedWords');
  return el('li', { testid: `privacy-words-${question.id}` }, [
    el('span', { class: 'privacy-question', text: t('questionN', index + 1) }),
    words,
  ]);
}

// A question without a formal ε says why (its kind knows).
function renderQuestionTechnical(question, index, questionPrivacy) {
  const epsilon = questionPrivacy.privacy?.epsilon ?? null;
  const central = isCentral(question) || isCentral(questionPrivacy);
  if (isOpen(question) || isOpen(questionPrivacy)) {
    return el('span', { testid: `privacy-${question.id}` }, [
      el('span', { class: 'privacy-question', text: t('questionN', index + 1) }),
      el('strong', { text: t('notProtected') }),
      t('openBudget'),
    ]);
  }
  return el('span', { testid: `privacy-${question.id}` }, [
    el('span', { class: 'privacy-question', text: t('questionN', index + 1) }),
    el('strong', { text: formatEpsilon(epsilon) }),
    central ? t('centralBudget') : ` (${mechanismShortName(mechanismName(question))})`,
    epsilon === null ? el('span', { class: 'privacy-note', text: ` — ${surveyKind(question.type).noEpsilonExplanation(question)}` }) : null,
  ]);
}

// The core's total leaves out the questions asked openly (they have no ε): said so.
function totalText(totalEpsilon, withOpen) {
  if (totalEpsilon === null || totalEpsilon === undefined) {
    return t('noTotal');
  }
  return withOpen ? t('totalWithOpen', formatEpsilon(totalEpsilon)) : t('total', formatEpsilon(totalEpsilon));
}

// A definition's mechanism is {name, ...}, or just its name (a model's "mechanism": "duchi").
function mechanismName(question) {
  return typeof question.mechanism === 'string' ? question.mechanism : question.mechanism.name;
}
