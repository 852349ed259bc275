// The creation page's part of a "choose all that apply" question: its label
// in the type selector, its fields (options, at most how many, mechanism,
// padding), the whole set's ε and the advisor's comparison of the set
// mechanisms at this k, m and ε (the core's design advice), and its part of
// the definition.
import { el } from '../../shared/dom.js';
import { scrollBox } from '../../shared/scroll-box.js';
import { formatEpsilon, formatInteger, formatPercent } from '../../shared/format.js';
import { decimalOrUndefined, definitionNumber, numberInput } from '../../shared/number-input.js';

export const label = 'Choose all that apply';

const MECHANISMS = [
  ['optimized_bits', 'Per-option bits, optimised (sparse sets)'],
  ['symmetric_bits', 'Per-option bits, symmetric'],
  ['padding_sampling', 'Padding and sampling (one item sent)'],
];
const SHORT = Object.fromEntries(MECHANISMS.map(([value, text]) => [value, text.split(' (')[0]]));

function splitOptions(text) {
  return text.split('\n').map((line) => line.trim()).filter((line) => line.length > 0);
}

export function createEditor({ fieldId, initial, field, epsilon }) {
  const inputs = {
    options: el('textarea', { id: fieldId('options'), rows: '5', testid: 'question-options' }),
    maxChoices: numberInput({ id: fieldId('max-choices'), value: initial.maxChoices ?? '', whole: true, testid: 'question-max-choices' }),
    mechanism: el('select', { id: fieldId('mechanism'), testid: 'question-mechanism' },
      MECHANISMS.map(([value, text]) => el('option', { value, text, selected: value === (initial.mechanism ?? MECHANISMS[0][0]) }))),
    padding: numberInput({ id: fieldId('padding'), value: initial.padding ?? '', whole: true, testid: 'question-padding' }),
  };
  inputs.options.value = initial.options ?? 'Cough\nFever\nHeadache\nFatigue';
  const maxField = field(inputs.maxChoices, 'At most how many may be chosen', 'Empty: any number. A smaller cap makes each option more precise at the same ε.');
  const paddingField = field(inputs.padding, 'Padding length ℓ', 'Empty: the cap. Sets larger than ℓ are under-counted.');
  const mechanismRow = el('div', { class: 'field-row' }, [field(inputs.mechanism, 'Mechanism'), paddingField]);
  const useMechanism = (name) => {
    inputs.mechanism.value = name;
    inputs.mechanism.dispatchEvent(new Event('change', { bubbles: true }));
    inputs.mechanism.focus();
  };
  return {
    nodes: [field(inputs.options, 'Options, one per line'), el('div', { class: 'field-row' }, [maxField]), mechanismRow],
    activate() {
      mechanismRow.insertBefore(epsilon.field, paddingField);
    },
    sync() {
      paddingField.hidden = inputs.mechanism.value !== 'padding_sampling';
      epsilon.field.hidden = false;
      epsilon.setDisabled(false);
    },
    read() {
      return { options: inputs.options.value, maxChoices: inputs.maxChoices.value, mechanism: inputs.mechanism.value, padding: inputs.padding.value };
    },
    feedback(core, { values, respondents, index, check }) {
      const checked = check();
      const epsilonValue = decimalOrUndefined(values.epsilon);
      if (!checked.ok) return { epsilon: epsilonValue, privacy: checked.message, error: true };
      const question = checked.definition.questions[0];
      return {
        epsilon: epsilonValue,
        privacy: `${formatEpsilon(epsilonValue)} for the whole set a respondent ticks`,
        adviceKey: JSON.stringify([question, respondents, index]),
        advice: () => {
          try {
            return renderAdvice(core.designAdvice(checked.definition, question.id, respondents), values.mechanism, index, useMechanism);
          } catch (error) {
            return el('p', { class: 'hint', testid: `advice-error-${index}`, text: `Advisor: ${error.message}` });
          }
        },
      };
    },
  };
}

// The advisor's table: each set mechanism's expected standard error of a share (near 0 and at 1/2).
function renderAdvice(advice, current, index, useMechanism) {
  const rows = advice.mechanisms.map((row) => el('tr', { class: row.mechanism === advice.recommended ? 'recommended' : null, dataset: { mechanism: row.mechanism } }, [
    el('th', { scope: 'row' }, [SHORT[row.mechanism] ?? row.mechanism, row.mechanism === advice.recommended ? el('span', { class: 'badge', text: 'best' }) : null]),
    el('td', { class: 'number', text: formatPercent(row.std_error) }),
    el('td', { class: 'number', text: formatPercent(row.std_error_at_half) }),
    el('td', { class: 'number', text: formatInteger(row.n_for_5_points) }),
  ]));
  const nodes = [el('div', { class: 'advice', testid: `advice-${index}` }, [
    el('p', { class: 'advice-recommendation' }, [
      'Recommended: ',
      el('strong', { testid: `advice-recommended-${index}`, dataset: { mechanism: advice.recommended }, text: SHORT[advice.recommended] }),
      el('span', { class: 'hint', text: ` — ${advice.reason}.` }),
    ]),
    el('p', { class: 'hint', id: `advice-caption-${index}`, text: `Expected standard error of one option's share with ${formatInteger(advice.respondents)} respondents, ${advice.options} options and at most ${advice.max_choices} chosen, every mechanism at ε ${advice.epsilon} for the whole set.` }),
    scrollBox(el('table', { class: 'advice-table', 'aria-describedby': `advice-caption-${index}` }, [
      el('thead', {}, [el('tr', {}, ['Mechanism', 'SE, rare option', 'SE, share 50%', 'n for ±5 pts'].map((text) => el('th', { scope: 'col', text })))]),
      el('tbody', {}, rows),
    ])),
  ])];
  if (advice.recommended !== current) {
    const use = el('button', { type: 'button', class: 'button button-small', testid: `use-recommended-${index}`, text: `Use ${SHORT[advice.recommended]}` });
    use.addEventListener('click', () => useMechanism(advice.recommended));
    nodes.push(use);
  }
  return nodes;
}

export function editorValues(question) {
  const mechanism = question.mechanism ?? {};
  return {
    options: (question.options ?? []).join('\n'),
    maxChoices: question.max_choices === undefined ? undefined : String(question.max_choices),
    mechanism: mechanism.name,
    epsilon: mechanism.epsilon === undefined ? undefined : String(mechanism.epsilon),
    padding: mechanism.padding === undefined ? undefined : String(mechanism.padding),
  };
}

export function buildDefinition(values) {
  const definition = { options: splitOptions(values.options) };
  if (String(values.maxChoices ?? '').trim() !== '') definition.max_choices = definitionNumber(values.maxChoices, true);
  const mechanism = { name: values.mechanism, epsilon: definitionNumber(values.epsilon) };
  if (values.mechanism === 'padding_sampling' && String(values.padding ?? '').trim() !== '') {
    mechanism.padding = definitionNumber(values.padding, true);
  }
  definition.mechanism = mechanism;
  return definition;
}
