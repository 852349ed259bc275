// The survey page's words for questions answered in confidence (see
// central/trust.js): the notice before the first question that says which
// questions are asked openly, which the organisation sees in confidence and
// which are randomised on this device,
// the line on each such question, and such a question's entry in the
// prepared report (its answer, sent as given).
import { el } from '../shared/dom.js';
import { isCentral } from './trust.js';
import { isOpen } from '../shared/open.js';
import { hasOpen } from '../survey/open.js';
import { formatEpsilon } from '../shared/format.js';
import { answerWords } from '../survey/answer-words.js';
import { plainText } from '../shared/rich-text.js';
// The page's words for what every trust model shares (the notice's heading,
// the other groups); this model's own words in survey-texts.js.
import { t } from '../survey/texts.js';
import { t as words } from './survey-texts.js';

// True when at least one question is answered in confidence. `summaries`:
// core.parseSurvey(definition).questions.
export function hasCentral(survey, summaries) {
  return survey.questions.some((question, index) => isCentral(question) || isCentral(summaries[index]));
}

// Who sees which answers, before the first question: the questions asked
// openly (sent as given), those answered in confidence and those randomised
// on the device, each group listed. Null when every question is randomised on
// the device (the page is then as before).
export function renderTrustNotice(survey, summaries) {
  if (!hasCentral(survey, summaries) && !hasOpen(survey, summaries)) return null;
  const entries = survey.questions.map((question, index) => ({
    question, index,
    trust: isOpen(question) || isOpen(summaries[index]) ? 'open' : (isCentral(question) || isCentral(summaries[index]) ? 'central' : 'local'),
  }));
  const group = (trust, heading, text) => {
    const members = entries.filter((entry) => entry.trust === trust);
    if (members.length === 0) return null;
    return el('div', { class: `trust-group trust-group-${trust}`, testid: `trust-${trust}` }, [
      el('h3', { text: `${heading} (${t('questionCount', members.length)})` }),
      el('p', { text }),
      renderList(members, `trust-${trust}-list`),
    ]);
  };
  return el('section', { class: 'card trust-notice', 'aria-labelledby': 'trust-heading', testid: 'trust-notice' }, [
    el('h2', { id: 'trust-heading', text: t('trustHeading') }),
    group('open', t('openGroup'), t('trustOpen')),
    group('central', words('inConfidence'), words('trustCentral')),
    group('local', t('onDevice'), t('trustLocal')),
    el('p', { class: 'hint', text: t('trustHint') }),
  ]);
}

function renderList(entries, testid) {
  return el('ul', { class: 'trust-list', testid }, entries.map(({ question, index }) =>
    el('li', { testid: `trust-${question.id}` }, [
      el('span', { class: 'question-number', text: `${index + 1}.` }), ` ${plainText(question.text)}`,
    ])));
}

// The line under a confidential question's text, inside its fieldset.
export function renderConfidentialLine(question) {
  return el('p', { class: 'confidence-line', testid: `confidence-${question.id}` }, [
    el('span', { class: 'badge badge-confidence', text: words('inConfidence') }),
    words('confidenceLine'),
  ]);
}

// A confidential question's entry in the prepared report, in the shape of a
// kind's describeResponse: the answer itself, in words (the kind's
// answerInWords), and what happens to it; the budget and what epsilon
// bounds behind a disclosure. `summary`: the core's page summary of the question.
export function describeConfidentialResponse(question, response, summary) {
  const value = answerWords(question, response);
  const budget = summary?.privacy?.epsilon ?? summary?.budget ?? question.budget ?? null;
  return {
    label: words('sentInConfidence'),
    values: [value],
    explanation: words('confidentialExplanation'),
    details: {
      summary: t('technicalDetails'),
      items: [
        words('confidentialBudget', formatEpsilon(budget)),
        // The core's note says the same for analysts, in English: the page says it in its language.
        words('confidentialCount'),
      ],
    },
  };
}
