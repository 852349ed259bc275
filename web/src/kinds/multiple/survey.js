// The survey page's part of a "choose all that apply" question: native
// checkboxes (Tab to each, Space to tick), an exclusive “None of these”
// (so that choosing nothing differs from skipping), at most max_choices
// ticked (the rest disabled once it is reached), and the report in words.
import { el } from '../../shared/dom.js';
import { formatChance, formatEpsilon, formatNumber } from '../../shared/format.js';
import { richText } from '../../shared/rich-text.js';
import { t } from './survey-texts.js';

const MECHANISM_NAMES = {
  symmetric_bits: 'symmetric per-option bits',
  optimized_bits: 'optimised per-option bits',
  padding_sampling: 'padding and sampling',
};

function maxChoices(question) {
  return question.max_choices ?? question.options.length;
}

export function renderFieldset(question, index) {
  const name = `answer-${index}`;
  const hintId = `q${index}-hint`;
  const boxes = question.options.map((option, optionIndex) => {
    const id = `q${index}-o${optionIndex}`;
    return el('label', { class: 'choice', for: id }, [
      el('input', { type: 'checkbox', id, name, value: String(optionIndex), testid: `option-${question.id}-${optionIndex}` }),
      el('span', { text: option }),
    ]);
  });
  const noneId = `q${index}-none`;
  const none = el('label', { class: 'choice', for: noneId }, [
    el('input', { type: 'checkbox', id: noneId, name: `${name}-none`, value: 'none', testid: `option-${question.id}-none` }),
    el('span', { text: t('noneOfThese') }),
  ]);
  const limit = maxChoices(question);
  const hint = el('p', { class: 'hint', id: hintId, text: limit < question.options.length ? t('chooseAtMost', formatNumber(limit)) : t('chooseAll') });
  const fieldset = el('fieldset', { class: 'question', testid: `question-${question.id}`, dataset: { questionId: question.id }, 'aria-describedby': hintId }, [
    el('legend', {}, [el('span', { class: 'question-number', text: `${index + 1}.` }), ' ', richText(question.text)]),
    hint,
    el('div', { class: 'choices', testid: `choices-${question.id}` }, [...boxes, none]),
  ]);
  const inputs = boxes.map((box) => box.querySelector('input'));
  const noneInput = none.querySelector('input');
  // “None of these” clears the options and the options clear it; at the limit, the unticked options are disabled.
  const sync = () => {
    const ticked = inputs.filter((input) => input.checked).length;
    for (const input of inputs) input.disabled = !input.checked && ticked >= limit;
  };
  fieldset.addEventListener('change', (event) => {
    if (event.target === noneInput && noneInput.checked) for (const input of inputs) input.checked = false;
    else if (inputs.includes(event.target) && event.target.checked) noneInput.checked = false;
    sync();
  });
  return fieldset;
}

// The ticked options' indices ([] for “None of these”), or null when nothing is ticked (unanswered).
// The answer stays in memory only: it is handed to the core and never stored.
export function readAnswer(form, question, index) {
  const ticked = [...form.querySelectorAll(`input[name="answer-${index}"]:checked`)].map((input) => Number(input.value));
  if (ticked.length > 0) return ticked;
  return form.querySelector(`input[name="answer-${index}-none"]:checked`) ? [] : null;
}

export function unansweredHint() {
  return t('unanswered');
}

// Every multiple mechanism has a formal ε.
export function noEpsilonExplanation() {
  return null;
}

// `summary`: the core's page summary (p and q of the report's own randomisation).
export function privacyInWords(question, summary) {
  const { p, q } = summary ?? {};
  if (typeof p !== 'number' || typeof q !== 'number') return null;
  const words = question.mechanism.name === 'padding_sampling' ? t('paddingWords', formatChance(p), formatChance(q)) : t('bitsWords', formatChance(p), formatChance(q));
  return `${words} ${t('wholeSet')}`;
}

export function describeResponse(question, response, summary) {
  const padding = question.mechanism.name === 'padding_sampling';
  const label = (value) => question.options[value] ?? t('blank', formatNumber(value - question.options.length + 1));
  const values = padding ? [label(response)] : response.flatMap((bit, value) => (bit === 1 ? [label(value)] : []));
  const description = {
    label: padding ? t('paddingLabel') : t('bitsLabel'),
    values: values.length > 0 ? values : [t('none')],
    explanation: padding ? t('paddingExplanation') : t('bitsExplanation'),
  };
  const chances = privacyInWords(question, summary);
  if (chances) description.explanation += ` ${chances.charAt(0).toUpperCase()}${chances.slice(1)}`;
  description.details = {
    summary: t('technicalDetails'),
    items: [
      t('mechanismItem', MECHANISM_NAMES[question.mechanism.name] ?? question.mechanism.name, formatEpsilon(question.mechanism.epsilon)),
      typeof summary?.p === 'number' ? t('probabilitiesItem', formatNumber(summary.p), formatNumber(summary.q)) : null,
    ].filter(Boolean),
  };
  return description;
}

// The answer in words (a multiple question is never answered in confidence; for completeness).
export function answerInWords(question, answer) {
  return answer.length === 0 ? t('noneOfThese') : answer.map((index) => question.options[index]).join(', ');
}
