import { el, replaceChildren, setText } from '../shared/dom.js';
import { formatEpsilon, mechanismShortName } from '../shared/format.js';
import { renderAdvice } from './advisor-table.js';
import { splitOptions } from './definition-builder.js';

// One question of the survey being built: its fields, and live feedback (its
// privacy budget and the advisor's comparison of mechanisms).

const MECHANISMS = [
  ['grr', 'GRR (randomised response)'],
  ['oue', 'OUE (optimised unary)'],
  ['sue', 'SUE (symmetric unary)'],
  ['negative', 'Negative survey'],
];

let nextKey = 0;

export function createQuestionEditor(initial, { onRemove }) {
  const key = nextKey++;
  const fieldId = (name) => `question-${key}-${name}`;
  const inputs = {
    id: el('input', { id: fieldId('id'), type: 'text', value: initial.id, autocomplete: 'off', spellcheck: 'false', testid: 'question-id' }),
    text: el('input', { id: fieldId('text'), type: 'text', value: initial.text, testid: 'question-text' }),
    options: el('textarea', { id: fieldId('options'), rows: '5', testid: 'question-options' }),
    mechanism: el('select', { id: fieldId('mechanism'), testid: 'question-mechanism' },
      MECHANISMS.map(([value, label]) => el('option', { value, text: label, selected: value === initial.mechanism }))),
    epsilon: el('input', { id: fieldId('epsilon'), type: 'number', min: '0.01', max: '30', step: '0.1', value: initial.epsilon, inputmode: 'decimal', testid: 'question-epsilon' }),
    reportedOptions: el('input', { id: fieldId('reported'), type: 'number', min: '1', step: '1', value: initial.reportedOptions, inputmode: 'numeric', testid: 'question-reported-options' }),
    pureNegative: el('input', { id: fieldId('pure'), type: 'checkbox', testid: 'question-pure-negative' }),
  };
  inputs.options.value = initial.options;

  const title = el('legend', {});
  const removeButton = el('button', { type: 'button', class: 'button button-small button-danger', testid: 'remove-question', text: 'Remove' });
  removeButton.addEventListener('click', () => onRemove(editor));
  const reportedField = field(inputs.reportedOptions, 'Reported options (s)', 'How many options each respondent reports as not theirs.');
  const pureField = el('div', { class: 'field field-checkbox' }, [inputs.pureNegative,
    el('label', { for: inputs.pureNegative.id, text: 'No epsilon (pure negative survey)' })]);
  const negativeOnly = [reportedField, pureField];
  const epsilonField = field(inputs.epsilon, 'Privacy budget ε', 'Smaller is more private but noisier (0.01 to 30).');
  const privacy = el('p', { class: 'question-privacy', testid: 'question-privacy' });
  const advice = el('div', { class: 'advice-slot' });
  let adviceInputs = '';

  const element = el('fieldset', { class: 'card question-editor', testid: 'question-editor' }, [
    title,
    el('div', { class: 'editor-toolbar' }, [removeButton]),
    field(inputs.text, 'Question'),
    field(inputs.options, 'Options, one per line'),
    el('div', { class: 'field-row' }, [
      field(inputs.id, 'Question id', 'Used in reports and exports; letters, digits, - and _.'),
      field(inputs.mechanism, 'Mechanism'),
    ]),
    el('div', { class: 'field-row' }, [epsilonField, reportedField]),
    pureField,
    privacy,
    advice,
  ]);

  const editor = {
    element,
    setPosition(index, count) {
      setText(title, `Question ${index + 1}`);
      element.dataset.testid = `question-editor-${index}`;
      removeButton.hidden = count <= 1;  // a survey needs at least one question
      this.index = index;
    },
    read() {
      syncVisibility();
      return {
        id: inputs.id.value,
        text: inputs.text.value,
        options: inputs.options.value,
        mechanism: inputs.mechanism.value,
        epsilon: inputs.epsilon.value,
        reportedOptions: inputs.reportedOptions.value,
        pureNegative: inputs.pureNegative.checked,
      };
    },
    // Live feedback: this question's budget and the advisor for (k, epsilon, n).
    showFeedback(core, respondents) {
      const values = this.read();
      const epsilon = values.mechanism === 'negative' && values.pureNegative ? null : Number(values.epsilon);
      setText(privacy, `This question: ${epsilonLabel(values, epsilon)}`);
      const optionCount = splitOptions(values.options).length;
      // Rebuild the table only when its inputs change (keeps focus on its button).
      const inputsKey = JSON.stringify([optionCount, epsilon, respondents, this.index, values.mechanism]);
      if (inputsKey === adviceInputs) return;
      adviceInputs = inputsKey;
      replaceChildren(advice, adviceFor(core, { optionCount, epsilon, respondents, current: values.mechanism }, this.index, (name) => {
        inputs.mechanism.value = name;
        inputs.mechanism.dispatchEvent(new Event('change', { bubbles: true }));
        inputs.mechanism.focus();  // the button that had focus is gone with the old table
      }));
    },
  };

  function syncVisibility() {
    const negative = inputs.mechanism.value === 'negative';
    negativeOnly.forEach((node) => { node.hidden = !negative; });
    inputs.epsilon.disabled = negative && inputs.pureNegative.checked;
  }

  syncVisibility();
  return editor;
}

function field(input, label, hint) {
  return el('div', { class: 'field' }, [
    el('label', { for: input.id, text: label }),
    input,
    hint ? el('p', { class: 'hint', text: hint }) : null,
  ]);
}

function epsilonLabel(values, epsilon) {
  if (epsilon === null) return `${formatEpsilon(null)} (a reported option is never the true answer, but no ε bounds what a report reveals)`;
  if (values.epsilon.trim() === '' || !Number.isFinite(epsilon)) return 'enter a privacy budget ε';
  return formatEpsilon(epsilon);
}

function adviceFor(core, { optionCount, epsilon, respondents, current }, index, useMechanism) {
  if (epsilon === null) {
    return el('p', { class: 'hint', text: 'The advisor compares mechanisms at a finite ε; untick “No epsilon” to see it.' });
  }
  let advice;
  try {
    advice = core.advise(optionCount, epsilon, respondents);
  } catch (error) {
    return el('p', { class: 'hint', testid: `advice-error-${index}`, text: `Advisor: ${error.message}` });
  }
  if (advice.recommended === current) return renderAdvice(advice, index);
  const use = el('button', { type: 'button', class: 'button button-small', testid: `use-recommended-${index}`, text: `Use ${mechanismShortName(advice.recommended)}` });
  use.addEventListener('click', () => useMechanism(advice.recommended));
  return [renderAdvice(advice, index), use];
}
