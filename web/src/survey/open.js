// The survey page's words for questions asked openly (see shared/open.js):
// the line on each such question, and its entry in the prepared report (the
// answer itself, sent as given). The notice before the first question that
// lists them is central/survey.js's (one notice for every trust model).
import { el } from '../shared/dom.js';
import { isOpen } from '../shared/open.js';
import { answerWords } from './answer-words.js';
import { t } from './texts.js';

// True when at least one question is asked openly. `summaries`:
// core.parseSurvey(definition).questions.
export function hasOpen(survey, summaries) {
  return survey.questions.some((question, index) => isOpen(question) || isOpen(summaries?.[index]));
}

// The line under an open question's text, inside its fieldset.
export function renderOpenLine(question) {
  return el('p', { class: 'confidence-line open-line', testid: `open-${question.id}` }, [
    el('span', { class: 'badge badge-open', text: t('askedOpenly') }),
    t('openLine'),
  ]);
}

// An open question's entry in the prepared report, in the shape of a kind's
// describeResponse: the answer as sent, in words, and that it is not protected.
export function describeOpenResponse(question, response) {
  return {
    label: t('sentOpenly'),
    values: [answerWords(question, response)],
    explanation: t('openExplanation'),
  };
}
