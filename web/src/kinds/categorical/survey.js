// The survey page's part of a categorical question: its native radio buttons,
// reading the chosen option, and its randomised report in words.
import { el } from '../../shared/dom.js';

// One question as a fieldset of native radio buttons: reachable with Tab,
// changed with the arrow keys or Space, and large enough to tap.
export function renderFieldset(question, index) {
  const name = `answer-${index}`;
  return el('fieldset', { class: 'question', testid: `question-${question.id}`, dataset: { questionId: question.id } }, [
    el('legend', {}, [el('span', { class: 'question-number', text: `${index + 1}.` }), ` ${question.text}`]),
    el('div', { class: 'choices' }, question.options.map((option, optionIndex) => {
      const id = `q${index}-o${optionIndex}`;
      return el('label', { class: 'choice', for: id }, [
        el('input', { type: 'radio', id, name, value: String(optionIndex), testid: `option-${question.id}-${optionIndex}` }),
        el('span', { text: option }),
      ]);
    })),
  ]);
}

// The checked option's index, or null when none is checked (unanswered). The
// answer stays in memory only: it is handed to the core and never stored.
export function readAnswer(form, question, index) {
  const checked = form.querySelector(`input[name="answer-${index}"]:checked`);
  return checked ? Number(checked.value) : null;
}

// Added to "Please answer every question" when such a question is unanswered.
export const unansweredHint = null;

// Said to the respondent when the question's mechanism has no formal ε (the
// pure negative survey); the core's note (for analysts) says the same in its terms.
export function noEpsilonExplanation() {
  return 'the options reported as not yours are never your answer, so the report rules them out for certain; no ε bounds what that reveals.';
}

// A perturbed response in human terms: {label, values, explanation, note}.
// This only reads the wire format (common.md "Report"); the randomisation
// itself happens in the core.
export function describeResponse(question, response) {
  const { name } = question.mechanism;
  if (name === 'grr') return describeGrr(question, response);
  if (name === 'oue' || name === 'sue') return describeUnary(question, response);
  if (name === 'negative') return describeNegative(question, response);
  throw new Error(`question ${question.id}: unknown mechanism "${name}"`);
}

// The answer itself in words (its option's label), for a question answered
// in confidence, whose report carries the answer as given (survey/confidential.js).
export function answerInWords(question, index) {
  return optionLabel(question, index);
}

function optionLabel(question, index) {
  const label = question.options[index];
  if (label === undefined) throw new Error(`question ${question.id}: option index ${index} is out of range`);
  return label;
}

function describeGrr(question, response) {
  return {
    label: 'Reported option',
    values: [optionLabel(question, response)],
    explanation: 'Your true option was kept with a set probability, otherwise replaced by another one at random.',
  };
}

function describeUnary(question, bits) {
  const values = bits.flatMap((bit, index) => (bit === 1 ? [optionLabel(question, index)] : []));
  return {
    label: 'Options reported as 1',
    values,
    explanation: 'Each option is sent as a yes/no bit, and every bit was randomly flipped with a set probability.',
  };
}

function describeNegative(question, indices) {
  return {
    label: 'Options reported as NOT yours',
    values: indices.map((index) => optionLabel(question, index)),
    explanation: 'These were picked at random among the options other than your answer.',
  };
}
