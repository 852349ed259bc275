// The survey page's part of a categorical question: its native radio buttons,
// reading the chosen option, and its randomised report in words.
import { el } from '../../shared/dom.js';
import { formatChance, formatEpsilon, formatNumber, mechanismLabel } from '../../shared/format.js';
import { richText } from '../../shared/rich-text.js';
import { t } from './survey-texts.js';

// Above this many options, a filter box narrows the list (which scrolls in a
// box of its own), so a long list does not make the page thousands of pixels tall.
const SEARCH_FROM = 20;

// One question as a fieldset of native radio buttons: reachable with Tab,
// changed with the arrow keys or Space, and large enough to tap.
export function renderFieldset(question, index) {
  const name = `answer-${index}`;
  const labels = question.options.map((option, optionIndex) => {
    const id = `q${index}-o${optionIndex}`;
    return el('label', { class: 'choice', for: id, dataset: { text: option.toLocaleLowerCase() } }, [
      el('input', { type: 'radio', id, name, value: String(optionIndex), testid: `option-${question.id}-${optionIndex}` }),
      el('span', { text: option }),
    ]);
  });
  const choices = el('div', { class: `choices${question.options.length > SEARCH_FROM ? ' choices-long' : ''}`, testid: `choices-${question.id}` }, labels);
  return el('fieldset', { class: 'question', testid: `question-${question.id}`, dataset: { questionId: question.id } }, [
    el('legend', {}, [el('span', { class: 'question-number', text: `${index + 1}.` }), ' ', richText(question.text)]),
    question.options.length > SEARCH_FROM ? renderFilter(question, index, labels, choices) : null,
    choices,
  ]);
}

// A text box that hides the options not containing its text. Enter or Arrow
// down moves to the first option shown (Enter also chooses it); the options
// stay native radio buttons, so the arrow keys move among those shown.
function renderFilter(question, index, labels, choices) {
  const id = `q${index}-filter`;
  const countId = `${id}-count`;
  const input = el('input', {
    id, type: 'search', autocomplete: 'off', spellcheck: 'false', testid: `filter-${question.id}`,
    'aria-describedby': countId, 'aria-controls': choices.id || null,
  });
  const count = el('p', { class: 'hint', id: countId, testid: `filter-count-${question.id}`, 'aria-live': 'polite' });
  const shown = () => labels.filter((label) => !label.hidden);
  const update = () => {
    const words = input.value.trim().toLocaleLowerCase();
    for (const label of labels) {
      const checked = label.querySelector('input').checked;
      label.hidden = words !== '' && !label.dataset.text.includes(words) && !checked;
    }
    const visible = shown().length;
    count.textContent = t('filterCount', formatNumber(visible), formatNumber(labels.length));
  };
  input.addEventListener('input', update);
  input.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' && event.key !== 'ArrowDown') return;
    event.preventDefault();  // Enter would submit the form
    const words = input.value.trim().toLocaleLowerCase();
    const first = shown().find((label) => words === '' || label.dataset.text.includes(words)) ?? shown()[0];
    const radio = first?.querySelector('input');
    if (!radio) return;
    if (event.key === 'Enter') {
      radio.checked = true;
      radio.dispatchEvent(new Event('change', { bubbles: true }));
    }
    radio.focus();
  });
  update();
  return el('div', { class: 'field option-filter' }, [
    el('label', { for: id, text: t('filterLabel', formatNumber(labels.length)) }),
    input,
    count,
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
  return t('noEpsilon');
}

// What is sent, in plain words, with the core's probabilities (`summary`: p
// and q of the question's page summary).
export function privacyInWords(question, summary) {
  const { p, q } = summary ?? {};
  if (typeof p !== 'number' || typeof q !== 'number') return null;
  const { name } = question.mechanism;
  const [pText, qText] = [formatChance(p), formatChance(q)];
  if (name === 'grr') return t('grrWords', pText, qText);
  if (name === 'oue' || name === 'sue') return t('unaryWords', pText, qText);
  if (name === 'negative') return p === 0 ? t('negativePureWords') : t('negativeWords', pText, qText);
  return null;
}

// A perturbed response in human terms: {label, values, explanation, details}.
// This only reads the wire format (common.md "Report"); the randomisation
// itself happens in the core. `summary`: the core's page summary (p, q).
export function describeResponse(question, response, summary) {
  const { name } = question.mechanism;
  let description;
  if (name === 'grr') description = describeGrr(question, response);
  else if (name === 'oue' || name === 'sue') description = describeUnary(question, response);
  else if (name === 'negative') description = describeNegative(question, response);
  else throw new Error(`question ${question.id}: unknown mechanism "${name}"`);
  const chances = privacyInWords(question, summary);
  if (chances) {
    const sentence = `${chances.charAt(0).toUpperCase()}${chances.slice(1)}`;
    // The negative survey's sentence already says the options were picked at random.
    description.explanation = name === 'negative' ? sentence : `${description.explanation} ${sentence}`;
  }
  description.details = {
    summary: t('technicalDetails'),
    items: [
      t('mechanismItem', mechanismLabel(question.mechanism), formatEpsilon(question.mechanism.epsilon ?? null)),
      typeof summary?.p === 'number' ? t('probabilitiesItem', formatNumber(summary.p), formatNumber(summary.q)) : null,
    ].filter(Boolean),
  };
  return description;
}

// The answer itself in words (its option's label), for a question answered
// in confidence, whose report carries the answer as given (central/survey.js).
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
    label: t('grrLabel'),
    values: [optionLabel(question, response)],
    explanation: t('grrExplanation'),
  };
}

function describeUnary(question, bits) {
  const values = bits.flatMap((bit, index) => (bit === 1 ? [optionLabel(question, index)] : []));
  return {
    label: t('unaryLabel'),
    values,
    explanation: t('unaryExplanation'),
  };
}

function describeNegative(question, indices) {
  return {
    label: t('negativeLabel'),
    values: indices.map((index) => optionLabel(question, index)),
    explanation: t('negativeExplanation'),
  };
}
