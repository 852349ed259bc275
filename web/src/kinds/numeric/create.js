// The creation page's part of a numeric question: its label in the type
// selector, its fields in a question editor (range, unit, step, mechanism, RVNS's
// shape, the privacy levels' intervals), its live budget from the core (and
// for privacy levels its advice), and its part of the definition.
import { el } from '../../shared/dom.js';
import { formatEpsilon, formatNumber, mechanismShortName } from '../../shared/format.js';
import { definitionNumber, numberInput } from '../../shared/number-input.js';
import { renderLevelsAdvice } from './levels-advisor-table.js';
import { renderMeanAdvice } from './mean-advisor-table.js';

export const label = 'Number in a range';

// Square Wave first, the default: at equal ε it estimates the distribution
// with a smaller error than RVNS (issue 27's measurements), and it has a
// formal ε where the published RVNS has none.
const MECHANISMS = [
  ['square_wave', 'Square Wave (distribution; recommended)'],
  ['rvns', 'RVNS (real-value negative survey)'],
  ['laplace', 'Laplace (mean and distribution)'],
  ['duchi', 'Duchi (mean)'],
  ['piecewise', 'Piecewise (mean)'],
  ['hybrid', 'Hybrid (mean)'],
  ['levels', 'Privacy levels by range (mean)'],
];

// May be asked openly ("privacy": "open", no mechanism: an age, a size to
// break results down by); the question editor then offers it.
export const supportsOpen = true;

// An open number has as many answers as it has values: null says "too many to
// count" (the builder says that numbers make nearly every combination unique).
export function openAnswerCount() {
  return null;
}

// Mechanisms whose ε follows from their own fields (the single ε field is hidden).
const OWN_BUDGET = new Set(['rvns', 'levels']);

// The kind's fields in one question editor. `field(input, label, hint)` lays
// out a labelled field; `epsilon` is the editor's privacy budget field
// ({field, input, setDisabled}), which this kind places under its mechanism
// and hides for RVNS (whose ε follows from its shape) and privacy levels
// (an ε per interval; the question's ε is the core's exact one).
export function createEditor({ fieldId, initial, field, epsilon }) {
  const number = (name, value, attributes = {}) => numberInput({ id: fieldId(name), value, testid: `question-${name}`, ...attributes });
  const inputs = {
    low: number('low', initial.low ?? '0'),
    high: number('high', initial.high ?? '100'),
    unit: el('input', { id: fieldId('unit'), type: 'text', value: initial.unit ?? '', autocomplete: 'off', testid: 'question-unit' }),
    step: number('step', initial.step ?? ''),
    mechanism: el('select', { id: fieldId('numeric-mechanism'), testid: 'question-numeric-mechanism' },
      MECHANISMS.map(([value, text]) => el('option', { value, text, selected: value === initial.numericMechanism }))),
    window: number('window', initial.window ?? '10'),
    values: number('values', initial.values ?? '2', { whole: true }),
    windowMode: el('select', { id: fieldId('window-mode'), testid: 'question-window-mode' }, [
      el('option', { value: 'shared', text: 'Shared by all k (paper)' }),
      el('option', { value: 'fresh', text: 'Fresh for each value', selected: initial.windowMode === 'fresh' }),
    ]),
    uniformProbability: number('uniform-probability', initial.uniformProbability ?? '0.25'),
    boundaries: listInput(fieldId('boundaries'), initial.boundaries ?? '50', 'question-boundaries', 'e.g. 20000, 100000'),
    epsilons: listInput(fieldId('epsilons'), initial.epsilons ?? '2, 1', 'question-epsilons', 'e.g. 1, 3, 1'),
    variant: el('select', { id: fieldId('levels-variant'), testid: 'question-levels-variant' }, [
      el('option', { value: 'paper', text: 'Paper (its stated ε does not hold)' }),
      el('option', { value: 'bounded', text: 'Bounded (the stated ε holds)', selected: initial.levelsVariant === 'bounded' }),
    ]),
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
  const levelsOnly = el('div', { class: 'levels-fields' }, [
    el('div', { class: 'field-row' }, [
      field(inputs.boundaries, 'Boundaries between intervals', 'Numbers inside the range, increasing, separated by commas or spaces (a decimal point). Empty: one interval.'),
      field(inputs.epsilons, 'ε per interval', 'One per interval, from the lowest: one more than the boundaries. A larger ε is less private; intervals with the same ε form one privacy level.'),
    ]),
    field(inputs.variant, 'Variant', 'Paper: as published (Hao et al. 2023), whose per-level ε is not a guarantee; the question’s exact ε is larger. Bounded: the direction is as noisy as the strictest level, so each level’s ε holds.'),
  ]);
  const mechanismField = field(inputs.mechanism, 'Mechanism');
  const numericFields = el('div', { class: 'numeric-fields' }, [
    el('div', { class: 'field-row' }, [
      field(inputs.low, 'Lowest answer'),
      field(inputs.high, 'Highest answer'),
      field(inputs.unit, 'Unit (optional)', 'e.g. kg/m2, years'),
      field(inputs.step, 'Answers in steps of (optional)', 'e.g. 1 for whole numbers, 0.1 for tenths; empty for any value. Quantiles are then reported on these steps.'),
    ]),
    mechanismField,
    rvnsOnly,
    levelsOnly,
  ]);
  const epsilonRow = el('div', { class: 'field-row' });
  const useMechanism = (name) => {
    inputs.mechanism.value = name;
    inputs.mechanism.dispatchEvent(new Event('change', { bubbles: true }));
    inputs.mechanism.focus();  // the button that had focus is gone with the old advice
  };

  return {
    nodes: [numericFields, epsilonRow],
    activate() {
      epsilonRow.append(epsilon.field);
    },
    sync() {
      const mechanism = inputs.mechanism.value;
      rvnsOnly.hidden = mechanism !== 'rvns';
      levelsOnly.hidden = mechanism !== 'levels';
      epsilon.field.hidden = OWN_BUDGET.has(mechanism);
      epsilon.setDisabled(false);
      mechanismField.hidden = false;
      epsilonRow.hidden = false;
    },
    // Asked openly: no mechanism, so none of its fields (ε among them).
    setOpen(open) {
      if (!open) return;
      for (const node of [mechanismField, rvnsOnly, levelsOnly, epsilonRow]) node.hidden = true;
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
        boundaries: inputs.boundaries.value,
        epsilons: inputs.epsilons.value,
        levelsVariant: inputs.variant.value,
      };
    },
    // The budget comes from the core (for RVNS it is a function of range, d,
    // k, window mode and γ; for privacy levels the exact ε of the report),
    // whose message explains what is wrong. The advice compares the mean's
    // precision (privacy levels: at equal exact ε; the others at this ε).
    feedback(core, { respondents, index, check }) {
      const checked = check();
      if (!checked.ok) return { epsilon: undefined, privacy: checked.message, error: true };
      const { epsilon: value } = checked;
      const details = checked.summary.privacy?.details;
      if (details?.levels) {
        const question = checked.definition.questions[0];
        return {
          epsilon: value,
          privacy: levelsPrivacyText(details),
          adviceKey: JSON.stringify([question, respondents, index]),
          advice: () => levelsAdvice(core, checked.definition, respondents, index),
        };
      }
      if (value === null) {
        // No ε to compare the mechanisms at: no advice.
        return {
          epsilon: value,
          privacy: `${formatEpsilon(null)} (the published RVNS: values avoid a window around the answer, but no ε bounds what a report reveals)`,
        };
      }
      const question = checked.definition.questions[0];
      return {
        epsilon: value,
        privacy: formatEpsilon(value),
        adviceKey: JSON.stringify([question, respondents, index]),
        advice: () => meanAdvice(core, checked.definition, respondents, index, useMechanism),
      };
    },
  };
}

// The exact ε from the core; the paper's claim only as a claim.
function levelsPrivacyText(details) {
  const exact = formatEpsilon(details.exact_epsilon);
  const levels = `${details.levels.length} privacy level${details.levels.length === 1 ? '' : 's'}`;
  if (details.variant === 'bounded') return `${exact} (exact; ${levels}; every pair of answers within the ε the paper states for it)`;
  return `${exact} (exact, for the range and direction reported together; ${levels}). The paper’s claim (not a guarantee): ε = ${formatNumber(details.paper_claimed_epsilon)}.`;
}

// The core's comparison of the mean's precision under each mechanism at this
// question's ε, with a button to switch to the most precise one.
function meanAdvice(core, definition, respondents, index, useMechanism) {
  const question = definition.questions[0];
  let advice;
  try {
    advice = core.designAdvice(definition, question.id, respondents);
  } catch (error) {
    return el('p', { class: 'hint', testid: `advice-error-${index}`, text: `Advisor: ${error.message}` });
  }
  if (!advice) return null;
  const table = renderMeanAdvice(advice, { unit: question.unit ?? '' }, index);
  // RVNS's ε follows from its shape: switching would compare at another ε than the field's, so no button.
  if (!advice.best || advice.best === advice.current || OWN_BUDGET.has(advice.current)) return table;
  const use = el('button', { type: 'button', class: 'button button-small', testid: `use-recommended-${index}`, text: `Use ${mechanismShortName(advice.best)} for the mean` });
  use.addEventListener('click', () => useMechanism(advice.best));
  return [table, use];
}

// The core's comparison of the mean's precision for this question.
function levelsAdvice(core, definition, respondents, index) {
  const question = definition.questions[0];
  let advice;
  try {
    advice = core.designAdvice(definition, question.id, respondents);
  } catch (error) {
    return el('p', { class: 'hint', testid: `advice-error-${index}`, text: `Advisor: ${error.message}` });
  }
  if (!advice) return null;
  return renderLevelsAdvice(advice, { unit: question.unit ?? '', variant: question.mechanism.variant }, index);
}

// A text field for a list of numbers ("20000, 100000" or "20000 100000"):
// the full keyboard, as a phone's decimal keypad may have no comma or space.
function listInput(id, value, testid, placeholder) {
  return el('input', { id, type: 'text', autocomplete: 'off', spellcheck: 'false', value, placeholder, testid });
}

// The numbers of a list field. A token that is not a number is kept as its
// text, so that the core refuses it naming the field and position.
function numberList(text) {
  return String(text ?? '').split(/[\s,;]+/).filter((token) => token !== '').map((token) => definitionNumber(token));
}

// The kind's part of the definition (after id, text and type).
// The editor's values of a question of a survey's definition (for a new
// version made as a copy): the inverse of buildDefinition.
export function editorValues(question) {
  const mechanism = question.mechanism ?? {};
  const text = (value) => (value === undefined || value === null ? undefined : String(value));
  return {
    low: text(question.range?.[0]),
    high: text(question.range?.[1]),
    unit: question.unit,
    step: text(question.step),
    numericMechanism: mechanism.name,
    epsilon: text(mechanism.epsilon),
    window: text(mechanism.window),
    values: text(mechanism.values),
    windowMode: mechanism.window_mode,
    uniformProbability: mechanism.name === 'rvns' ? String(mechanism.uniform_probability ?? 0) : undefined,
    boundaries: mechanism.boundaries?.join(', '),
    epsilons: mechanism.epsilons?.join(', '),
    levelsVariant: mechanism.variant,
  };
}

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

// RVNS takes its shape (d, k, window mode, γ); privacy levels their
// boundaries, an ε per interval and the variant; the others take ε. A γ of 0
// is left out: that is the published RVNS (no formal epsilon).
function buildMechanism(values) {
  const name = values.numericMechanism;
  if (name === 'levels') {
    return { name, boundaries: numberList(values.boundaries), epsilons: numberList(values.epsilons), variant: values.levelsVariant };
  }
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
