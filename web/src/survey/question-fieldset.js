import { el } from '../shared/dom.js';
import { isCentral } from '../central/trust.js';
import { isOpen } from '../shared/open.js';
import { renderConfidentialLine } from '../central/survey.js';
import { renderOpenLine } from './open.js';
import { surveyKind } from './kinds.js';
import { questionShown } from './conditions.js';
import { t } from './texts.js';

// The questions of the survey page, each drawn by its kind
// (kinds/<type>/survey.js). A kind names its first answer control
// "answer-<index>", so the page can move focus to an unanswered question.

// An optional question ("required": false) may be skipped, but only on
// purpose: the respondent ticks "Skip this question"; left unanswered
// without it, it is asked for like any other.
export function isOptional(question) {
  return question.required === false;
}

// `questions`: the survey's questions (a kind may name the others, e.g. the
// questions a model is built from). A question answered in confidence or
// asked openly is asked with its kind's controls, and says so under its text.
export function renderQuestion(question, index, questions) {
  const fieldset = surveyKind(question.type).renderFieldset(question, index, questions);
  // Answered in confidence, or asked openly (sent as given, not randomised): said under its text.
  const line = isCentral(question) ? renderConfidentialLine(question) : (isOpen(question) ? renderOpenLine(question) : null);
  if (line) {
    fieldset.classList.add(isCentral(question) ? 'question-confidential' : 'question-open');
    const legend = fieldset.querySelector('legend');
    if (legend) legend.after(line);
    else fieldset.prepend(line);
  }
  if (isOptional(question)) {
    fieldset.querySelector('legend')?.append(el('span', { class: 'optional-tag', text: t('optionalTag') }));
    fieldset.append(renderSkipChoice(fieldset, question, index));
  }
  return fieldset;
}

// A checkbox inside the question's fieldset, after its answer controls (so
// Tab reaches it next, Space ticks it), that says what skipping shows.
// Ticked, the question's answer controls are disabled: nothing of them is read.
function renderSkipChoice(fieldset, question, index) {
  const id = `q${index}-skip`;
  const noteId = `${id}-note`;
  const checkbox = el('input', { type: 'checkbox', id, name: `skip-${index}`, testid: `skip-${question.id}`, 'aria-describedby': noteId });
  let disabledBySkip = [];  // given back when the box is unticked
  checkbox.addEventListener('change', () => {
    fieldset.classList.toggle('question-skipped', checkbox.checked);
    if (checkbox.checked) {
      disabledBySkip = [...fieldset.querySelectorAll('input, select, textarea, button')]
        .filter((control) => control !== checkbox && !control.disabled);
      for (const control of disabledBySkip) control.disabled = true;
    } else {
      for (const control of disabledBySkip) control.disabled = false;
      disabledBySkip = [];
    }
  });
  return el('div', { class: 'skip-question' }, [
    el('label', { class: 'choice skip-choice', for: id }, [checkbox, el('span', { text: t('skipQuestion') })]),
    el('p', {
      class: 'hint', id: noteId, testid: `skip-note-${question.id}`,
      text: t('skipNote'),
    }),
  ]);
}

function skipTicked(form, index) {
  return form.querySelector(`input[name="skip-${index}"]`)?.checked === true;
}

// Reads every question's answer through its kind; an optional question whose
// skip box is ticked is left out (skipped). A kind whose answer is built from
// earlier questions' answers (its answersUsed(question): their ids, e.g. a
// model's variables) is given the answers read so far; while one of those is
// missing it cannot be answered: skipped when optional, else unanswered. The
// answers are handed to the core, never sent as they are or logged (save and
// resume keeps the controls' state on this device only: resume.js). A question whose condition ("show_if", conditions.js) the
// answers read so far do not meet is hidden: not read, not asked for.
export function readAnswers(form, survey) {
  const answers = {};
  const unanswered = [];
  const skipped = [];
  const hidden = [];
  survey.questions.forEach((question, index) => {
    if (!questionShown(survey, question, answers)) {
      hidden.push(index);
      return;
    }
    if (isOptional(question) && skipTicked(form, index)) {
      skipped.push(index);
      return;
    }
    const kind = surveyKind(question.type);
    const used = kind.answersUsed?.(question) ?? [];
    if (used.some((id) => !Object.hasOwn(answers, id))) {
      (isOptional(question) ? skipped : unanswered).push(index);
      return;
    }
    const value = kind.readAnswer(form, question, index, answers);
    if (value === null) unanswered.push(index);
    else answers[question.id] = value;
  });
  return { answers, unanswered, skipped, hidden };
}

// Shows the questions whose conditions the answers on the controls meet and
// hides the others (a hidden question is out of the tab order and unread; its
// controls keep what was ticked, should it come back). Returns the indices hidden.
export function applyConditions(form, survey) {
  if (!survey.questions.some((question) => question.show_if)) return [];
  const { hidden } = readAnswers(form, survey);
  survey.questions.forEach((question, index) => {
    if (!question.show_if) return;
    const fieldset = form.querySelector(`fieldset[data-question-id="${CSS.escape(question.id)}"]`);
    if (fieldset) fieldset.hidden = hidden.includes(index);
  });
  return hidden;
}

// What to add to "Please answer every question" for these unanswered
// questions: each kind's hint once (e.g. that a number must lie in its
// range), and how to leave out an optional one.
export function unansweredHints(survey, unanswered) {
  // A kind's hint is a text, or a function of the question (and the survey's questions).
  const hints = unanswered.map((index) => {
    const question = survey.questions[index];
    const hint = surveyKind(question.type).unansweredHint;
    return typeof hint === 'function' ? hint(question, survey.questions) : hint;
  }).filter(Boolean);
  if (unanswered.some((index) => isOptional(survey.questions[index]))) {
    hints.push(t('skipHint'));
  }
  return [...new Set(hints)];
}
