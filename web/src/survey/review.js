import { el } from '../shared/dom.js';
import { plainText } from '../shared/rich-text.js';
import { answerWords } from './answer-words.js';
import { surveyKind } from './kinds.js';
import { t } from './texts.js';

// "Check your answers": the step between answering and preparing the report.
// Each question and its answer in words, with a Change button that goes back
// to that question, and the one button that prepares the report (after which
// nothing can change: a second randomisation would weaken the privacy). The
// answers are read from the controls and shown here only; never stored.
//
// `onChange(index)` goes back to question `index`; `onPrepare()` asks for the
// report (the page's flow says whether it may, and calls setBusy meanwhile).
export function renderReview(survey, { onChange, onPrepare }) {
  const rows = survey.questions.map((question, index) => renderRow(question, index));
  const errorBox = el('p', { class: 'notice notice-error', role: 'alert', testid: 'prepare-error', hidden: true });
  const prepareButton = el('button', { type: 'button', class: 'button button-primary', testid: 'prepare-report', text: t('prepare') });
  const heading = el('h2', { id: 'review-heading', tabindex: '-1', text: t('reviewHeading') });
  const intro = el('p', { class: 'hint', testid: 'review-intro', text: t('reviewIntro') });
  const element = el('section', { class: 'card review', testid: 'review', 'aria-labelledby': 'review-heading', hidden: true }, [
    heading,
    intro,
    el('dl', { class: 'review-list' }, rows.map((entry) => entry.row)),
    errorBox,
    el('div', { class: 'actions' }, [prepareButton]),
  ]);
  element.addEventListener('click', (event) => {
    const button = event.target.closest('[data-change]');
    if (button) onChange(Number(button.dataset.change));
  });
  prepareButton.addEventListener('click', () => onPrepare());
  return {
    element,
    // Shows the answers read ({answers, skipped, hidden}) and moves focus to
    // the heading; a question hidden by its condition is not listed.
    show({ answers, skipped, hidden = [] }) {
      for (const { question, index, value, row } of rows) {
        row.hidden = hidden.includes(index);
        if (row.hidden) value.textContent = '';
        else if (skipped.includes(index)) value.textContent = t('skipped');
        else value.textContent = answerWords(question, answers[question.id]);
      }
      errorBox.hidden = true;
      element.hidden = false;
      heading.focus();
    },
    hide() {
      element.hidden = true;
    },
    // While the report is prepared (it may wait for a model's state) nothing
    // can change: the report is made from the answers as reviewed, and a
    // second press does nothing.
    setBusy(busy) {
      prepareButton.disabled = busy;
      for (const button of element.querySelectorAll('[data-change]')) button.disabled = busy;
    },
    showError(message) {
      errorBox.textContent = message;
      errorBox.hidden = false;
      prepareButton.focus();
    },
    // Once prepared, the answers stay on view for the record, without Change
    // buttons or the Prepare button, and the intro says they are now fixed.
    lock() {
      for (const button of element.querySelectorAll('[data-change]')) button.hidden = true;
      prepareButton.hidden = true;
      intro.textContent = t('reviewLocked');
    },
  };
}

function renderRow(question, index) {
  const value = el('dd', { testid: `review-value-${question.id}` });
  const row = el('div', { class: 'review-item', testid: `review-${question.id}` }, [
    el('dt', {}, [el('span', { class: 'question-number', text: `${index + 1}.` }), ` ${plainText(question.text)}`]),
    value,
    // A question built from other answers (a model) has nothing to change:
    // its answers are changed on their own rows.
    builtFromOthers(question) ? null : el('dd', { class: 'review-change' }, [
      el('button', { type: 'button', class: 'button button-small', testid: `change-${question.id}`, dataset: { change: String(index) }, text: t('change') },
        [el('span', { class: 'visually-hidden', text: t('changeWhich', index + 1) })]),
    ]),
  ]);
  return { question, index, value, row };
}

function builtFromOthers(question) {
  return (surveyKind(question.type).answersUsed?.(question) ?? []).length > 0;
}
