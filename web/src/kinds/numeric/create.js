// The creation page's part of a numeric question: its label in the type
// selector, its fields in a question editor (range, unit, step, mechanism, RVNS's
// shape), its live budget from the core, and its part of the definition.
import { el } from '../../shared/dom.js';
import { formatEpsilon } from '../../shared/format.js';
import { definitionNumber, numberInput } from '../../shared/number-input.js';

export const label = 'Number in a range';

const MECHANISMS = [
  ['rvns', 'RVNS (real-value negative survey)'],
  ['square_wave', 'Square Wave (distribution)'],
  ['laplace', 'Laplace (mean and distribution)'],
  ['duchi', 'Duchi (mean)'],
  ['piecewise', 'Piecewise (mean)'],
  ['hybrid', 'Hybrid (mean)'],
];

// The kind's fields in one question editor. `field(input, label, hint)` lays
// out a labelled field; `epsilon` is the editor's privacy budget field
// ({field, input, setDisabled}), which this kind places under its mechanism
// and hides for RVNS (whose ε follows from its shape).
export function createEditor({ fieldId, initial, field, epsilon }) {
  const number = (name, value, attributes = {}) => numberInput({ id: fieldId(name), value, testid: `question-${name}`, ...attributes });
  const inputs = {
    low: number('low', initial.low ?? '0'),
    high: number('high', initial.high ?? '100'),
    unit: el('input', { id: fieldId('unit'), type: 'text', value: initial.unit ?? '', autocomplete: 'off', testid: 'question-unit' }),
    step: number('step', initial.step ?? ''),
    mechanism: el('select', { id: fieldId('numeric-mechanism'), testid: 'question-numeric-mechanism' },
      MECHANISMS.map(([value, text]) => el('option', { value, text }))),
    window: number('window', initial.window ?? '10'),
    values: number('values', initial.values ?? '2', { whole: true }),
    windowMode: el('select', { id: fieldId('window-mode'), testid: 'question-window-mode' }, [
      el('option', { value: 'shared', text: 'Shared by all k (paper)' }),
      el('option', { value: 'fresh', text: 'Fresh for each value' }),
    ]),
    uniformProbability: number('uniform-probability', initial.uniformProbability ?? '0.25'),
  };
  const rvnsOnly = el('div', { class: 'rvns-fields' }, [
    el('div', { class: 'field-row' }, [
      field(inputs.window, 'Window width d', 'Each reported value avoids a window this wide around the answer; at most half the range.'),
      field(inputs.values, 'Values per report k'),
    ]),
    el('div', { class: 'field-row' }, [
      field(inputs.windowMode, 'Window'),
      field(inputs.uniformProbability, 'Uniform probability γ', '0 = published RVNS, no formal ε. Above 0, each value is drawn from the whole range with probability γ, which bounds ε.'),
    ]),
  ]);
  const numericFields = el('div', { class: 'numeric-fields' }, [
    el('div', { class: 'field-row' }, [
      field(inputs.low, 'Lowest answer'),
      field(inputs.high, 'Highest answer'),
      field(inputs.unit, 'Unit (optional)', 'e.g. kg/m2, years'),
      field(inputs.step, 'Answers in steps of (optional)', 'e.g. 1 for whole numbers, 0.1 for tenths; empty for any value. Quantiles are then reported on these steps.'),
    ]),
    field(inputs.mechanism, 'Mechanism'),
    rvnsOnly,
  ]);
  const epsilonRow = el('div', { class: 'field-row' });

  return {
    nodes: [numericFields, epsilonRow],
    activate() {
      epsilonRow.append(epsilon.field);
    },
    sync() {
      const rvns = inputs.mechanism.value === 'rvns';
      rvnsOnly.hidden = !rvns;
      epsilon.field.hidden = rvns;
      epsilon.setDisabled(false);
    },
    read() {
      return {
        low: inputs.low.value,
        high: inputs.high.value,
        unit: inputs.unit.value,
        step: inputs.step.value,
        numericMechanism: inputs.mechanism.value,
        window: inputs.window.value,
        values: inputs.values.value,
        windowMode: inputs.windowMode.value,
        uniformProbability: inputs.uniformProbability.value,
      };
    },
    // The budget comes from the core (for RVNS it is a function of range, d,
    // k, window mode and γ), whose message explains what is wrong. No advisor.
    feedback(core, { check }) {
      const checked = check();
      if (!checked.ok) return { epsilon: undefined, privacy: checked.message, error: true };
      const { epsilon: value } = checked;
      return {
        epsilon: value,
        privacy: value === null
          ? `${formatEpsilon(null)} (the published RVNS: values avoid a window around the answer, but no ε bounds what a report reveals)`
          : formatEpsilon(value),
      };
    },
  };
}

// The kind's part of the definition (after id, text and type).
export function buildDefinition(values) {
  const unit = values.unit.trim();
  const step = definitionNumber(values.step);
  return {
    range: [definitionNumber(values.low), definitionNumber(values.high)],
    ...(unit ? { unit } : {}),
    ...(step !== undefined ? { step } : {}),
    mechanism: buildMechanism(values),
  };
}

// RVNS takes its shape (d, k, window mode, γ); the others take ε. A γ of 0
// is left out: that is the published RVNS (no formal epsilon).
function buildMechanism(values) {
  const name = values.numericMechanism;
  if (name !== 'rvns') return { name, epsilon: definitionNumber(values.epsilon) };
  const mechanism = {
    name,
    window: definitionNumber(values.window),
    values: definitionNumber(values.values, true),
    window_mode: values.windowMode,
  };
  const gamma = definitionNumber(values.uniformProbability);
  if (gamma !== 0) mechanism.uniform_probability = gamma;
  return mechanism;
}
