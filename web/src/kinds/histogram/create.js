// The creation page's part of a histogram question: its label in the type
// selector, its fields in a question editor (range, unit, the data
// consumers' histograms, mechanism), its live budget and the core's design
// advice, and its part of the definition.
import { el } from '../../shared/dom.js';
import { formatEpsilon, formatInteger, mechanismShortName } from '../../shared/format.js';
import { definitionNumber, numberInput } from '../../shared/number-input.js';
import { renderDesignAdvice } from './advisor-table.js';
import { buildConsumer, createConsumersEditor } from './consumers-editor.js';

export const label = 'Number in bins (histograms)';

// May be answered in confidence (central: "privacy": "central", a budget, no
// mechanism); the question editor then offers "Who sees the answer".
export const supportsConfidential = true;

const MECHANISMS = [
  ['oue', 'OUE (optimised unary)'],
  ['sue', 'SUE (symmetric unary, basic RAPPOR)'],
  ['tree', 'Tree (OUE on one level of a tree)'],
];

// The kind's fields in one question editor. `field(input, label, hint)` lays
// out a labelled field; `epsilon` is the editor's privacy budget field
// ({field, input, setDisabled}), which this kind places next to its mechanism.
export function createEditor({ fieldId, initial, field, epsilon }) {
  // The same test ids as a numeric question's range (only one kind's fields are on the page at a time).
  const number = (name, value) => numberInput({ id: fieldId(`histogram-${name}`), value, testid: `question-${name}` });
  const inputs = {
    low: number('low', initial.low ?? '0'),
    high: number('high', initial.high ?? '100'),
    unit: el('input', { id: fieldId('histogram-unit'), type: 'text', value: initial.unit ?? '', autocomplete: 'off', testid: 'question-unit' }),
    mechanism: el('select', { id: fieldId('histogram-mechanism'), testid: 'question-histogram-mechanism' },
      MECHANISMS.map(([value, text]) => el('option', { value, text, selected: value === initial.histogramMechanism }))),
  };
  const consumers = createConsumersEditor({ fieldId, initial: initial.consumers });
  const mechanismRow = el('div', { class: 'field-row' }, [field(inputs.mechanism, 'Mechanism')]);

  const useMechanism = (name) => {
    inputs.mechanism.value = name;
    inputs.mechanism.dispatchEvent(new Event('change', { bubbles: true }));
    inputs.mechanism.focus();  // the button that had focus is gone with the old advice
  };

  return {
    nodes: [
      el('div', { class: 'field-row' }, [
        field(inputs.low, 'Lowest answer'),
        field(inputs.high, 'Highest answer'),
        field(inputs.unit, 'Unit (optional)', 'e.g. USD, years'),
      ]),
      consumers.element,
      mechanismRow,
    ],
    activate() {
      mechanismRow.append(epsilon.field);
    },
    sync() {
      epsilon.field.hidden = false;
      epsilon.setDisabled(false);
    },
    // Answered in confidence: no mechanism, so neither it nor ε.
    setConfidential(central) {
      mechanismRow.hidden = central;
    },
    read() {
      return {
        low: inputs.low.value,
        high: inputs.high.value,
        unit: inputs.unit.value,
        histogramMechanism: inputs.mechanism.value,
        consumers: consumers.read(),
      };
    },
    // The budget and the fine ranges come from the core, whose message names
    // the field that is wrong (e.g. histograms[1].edges[2]); the advice too.
    feedback(core, { respondents, index, check }) {
      const checked = check();
      if (!checked.ok) return { epsilon: undefined, privacy: checked.message, error: true };
      const question = checked.definition.questions[0];
      return {
        epsilon: checked.epsilon,
        privacy: privacyText(checked.epsilon, checked.summary.fine_edges.length - 1, question.histograms.length),
        adviceKey: JSON.stringify([question, respondents, index]),
        advice: () => adviceFor(core, checked.definition, { respondents, index, current: question.mechanism.name }, useMechanism),
      };
    },
  };
}

function privacyText(epsilon, fineCells, consumerCount) {
  const serves = { 1: 'its data consumer', 2: 'both data consumers' }[consumerCount] ?? `all ${consumerCount} data consumers`;
  return `${formatEpsilon(epsilon)} (one report of ${formatInteger(fineCells)} bits serves ${serves})`;
}

// The kind's part of the definition (after id, text and type).
// The editor's values of a question of a survey's definition (for a new
// version made as a copy): the inverse of buildDefinition.
export function editorValues(question) {
  const mechanism = question.mechanism ?? {};
  return {
    low: question.range ? String(question.range[0]) : undefined,
    high: question.range ? String(question.range[1]) : undefined,
    unit: question.unit,
    histogramMechanism: mechanism.name,
    epsilon: mechanism.epsilon === undefined ? undefined : String(mechanism.epsilon),
    consumers: (question.histograms ?? []).map((consumer) => (consumer.edges
      ? { name: consumer.name ?? '', mode: 'edges', bins: '10', edges: consumer.edges.map(String).join(', ') }
      : { name: consumer.name ?? '', mode: 'bins', bins: String(consumer.bins ?? ''), edges: '' })),
  };
}

export function buildDefinition(values) {
  const unit = values.unit.trim();
  return {
    range: [definitionNumber(values.low), definitionNumber(values.high)],
    ...(unit ? { unit } : {}),
    histograms: values.consumers.map(buildConsumer),
    mechanism: { name: values.histogramMechanism, epsilon: definitionNumber(values.epsilon) },
  };
}

// The core's comparison for this question, and a button to switch to its
// recommendation when the question uses the other mechanism.
function adviceFor(core, definition, { respondents, index, current }, useMechanism) {
  const question = definition.questions[0];
  let advice;
  try {
    advice = core.designAdvice(definition, question.id, respondents);
  } catch (error) {
    return el('p', { class: 'hint', testid: `advice-error-${index}`, text: `Advisor: ${error.message}` });
  }
  const table = renderDesignAdvice(advice, question.histograms.map((consumer) => consumer.name), index);
  if (advice.recommended === current) return table;
  const use = el('button', { type: 'button', class: 'button button-small', testid: `use-recommended-${index}`, text: `Use ${mechanismShortName(advice.recommended)}` });
  use.addEventListener('click', () => useMechanism(advice.recommended));
  return [table, use];
}
