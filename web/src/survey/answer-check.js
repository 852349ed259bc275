// The survey page's checks of the answers on the controls before the review:
// which questions are still to answer or to correct, said above the button
// and marked where they are, and how many are answered so far.
import { el } from '../shared/dom.js';
import { plainText } from '../shared/rich-text.js';
import { readAnswers, unansweredHints } from './question-fieldset.js';
import { surveyKind } from './kinds.js';
import { t } from './texts.js';

// Surveys with more questions than this show how many are answered.
export const PROGRESS_FROM = 5;

// How many questions are answered or skipped, read from the controls.
export function answeredCount(form, survey) {
  try {
    const { answers, skipped } = readAnswers(form, survey);
    return Object.keys(answers).length + skipped.length;
  } catch {
    return 0;
  }
}

// The answers read from the controls ({answers, unanswered, skipped}), or
// null after saying, above the button, which questions to answer or correct
// and moving focus to the first of them.
export function checkAnswers(form, survey, errorBox) {
  const read = readAnswers(form, survey);
  // A typed number that was refused (outside the range, say) is marked by its
  // field with the reason; it is named as such, not as unanswered.
  const refused = read.unanswered.filter((index) => form.querySelector(`input[name="answer-${index}"][aria-invalid="true"]`));
  const unanswered = askedFor(survey, read.unanswered.filter((index) => !refused.includes(index)));
  // Each question named by its number and its text, so the list says which in words.
  const numbers = (indices) => indices.map((index) => questionInWords(survey, index)).join(', ');
  markUnanswered(form, survey, unanswered);
  if (refused.length > 0) {
    errorBox.textContent = t('correctQuestions', refused.length, numbers(refused)) +
      (unanswered.length > 0 ? ` ${t('stillUnanswered', numbers(unanswered))}` : '');
    errorBox.hidden = false;
    form.querySelector(`input[name="answer-${refused[0]}"]`)?.focus();
    return null;
  }
  if (unanswered.length > 0) {
    const hints = unansweredHints(survey, unanswered).map((hint) => ` ${hint}`).join('');
    errorBox.textContent = `${t('answerEvery', unanswered.length, numbers(unanswered))}${hints}`;
    errorBox.hidden = false;
    focusQuestion(form, survey, unanswered[0]);
    return null;
  }
  errorBox.hidden = true;
  return read;
}

// A question built from other questions' answers (a model: there is nothing
// to answer on it) is not asked for while one of those questions is: that
// question is what the respondent has to answer.
function askedFor(survey, unanswered) {
  const missing = new Set(unanswered.map((index) => survey.questions[index].id));
  return unanswered.filter((index) => {
    const question = survey.questions[index];
    const used = surveyKind(question.type).answersUsed?.(question) ?? [];
    return !used.some((id) => missing.has(id));
  });
}

// "2 (“How much do you earn?”)": a question's number with its text, cut short when long.
function questionInWords(survey, index) {
  const text = plainText(survey.questions[index].text);
  const short = text.length > 60 ? `${text.slice(0, 57).trimEnd()}…` : text;
  return `${index + 1} (“${short}”)`;
}

// Marks each unanswered question where it is (a red border and "Not answered
// yet" under its text), until the respondent answers it; other marks go.
function markUnanswered(form, survey, unanswered) {
  for (const note of form.querySelectorAll('.question-unanswered-note')) note.remove();
  for (const fieldset of form.querySelectorAll('.question-unanswered')) fieldset.classList.remove('question-unanswered');
  for (const index of unanswered) {
    const fieldset = form.querySelector(`fieldset[data-question-id="${CSS.escape(survey.questions[index].id)}"]`);
    if (!fieldset) continue;
    fieldset.classList.add('question-unanswered');
    const note = el('p', { class: 'question-unanswered-note', testid: `unanswered-${survey.questions[index].id}`, text: t('notAnsweredYet') });
    const legend = fieldset.querySelector('legend');
    if (legend) legend.after(note);
    else fieldset.prepend(note);
    const clear = () => {
      fieldset.classList.remove('question-unanswered');
      note.remove();
    };
    fieldset.addEventListener('input', clear, { once: true });
    fieldset.addEventListener('change', clear, { once: true });
  }
}

// A question's first answer control, or (for a question with none, e.g. a
// model built from other answers) its fieldset.
export function focusQuestion(form, survey, index) {
  const control = form.querySelector(`input[name="answer-${index}"]:checked`) ?? form.querySelector(`input[name="answer-${index}"]`);
  if (control) {
    control.focus();
    return;
  }
  const fieldset = form.querySelector(`fieldset[data-question-id="${CSS.escape(survey.questions[index].id)}"]`);
  fieldset?.setAttribute('tabindex', '-1');
  fieldset?.focus();
}
