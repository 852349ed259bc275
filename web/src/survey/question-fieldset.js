import { el } from '../shared/dom.js';
import { readNumericAnswer, renderNumericQuestion } from './numeric-question.js';

// One question as a fieldset of native radio buttons: reachable with Tab,
// changed with the arrow keys or Space, and large enough to tap.
// Numeric questions have their own control (numeric-question.js).
export function renderQuestion(question, index) {
  if (question.type === 'numeric') return renderNumericQuestion(question, index);
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

// Reads the checked radio of every question. The result stays in memory only:
// it is handed to the core and never stored, logged or sent.
export function readAnswers(form, survey) {
  const answers = {};
  const unanswered = [];
  survey.questions.forEach((question, index) => {
    if (question.type === 'numeric') {
      const value = readNumericAnswer(form, question, index);
      if (value === null) unanswered.push(index);
      else answers[question.id] = value;
      return;
    }
    const checked = form.querySelector(`input[name="answer-${index}"]:checked`);
    if (checked) answers[question.id] = Number(checked.value);
    else unanswered.push(index);
  });
  return { answers, unanswered };
}
