// The creation page's part of a model question: its label in the type
// selector, its fields in a question editor (the target's and the features'
// question ids, ε, the mechanism and an optional round size), its live
// budget from the core (checked after the survey's earlier questions, which
// the model names), and its part of the definition.
import { el } from '../../shared/dom.js';
import { formatEpsilon, formatInteger } from '../../shared/format.js';
import { definitionNumber, numberInput } from '../../shared/number-input.js';

export const label = 'Linear model of earlier numbers (trained in rounds)';

const MECHANISMS = [
  ['piecewise', 'Piecewise'],
  ['duchi', 'Duchi et al.'],
];

// "age, hours" (or "age hours") -> ["age", "hours"]
function splitIds(text) {
  return String(text ?? '').split(/[\s,;]+/).map((id) => id.trim()).filter((id) => id.length > 0);
}

// The kind's fields in one question editor. `field(input, label, hint)` lays
// out a labelled field; `epsilon` is the editor's privacy budget field, which
// this kind places next to its mechanism.
export function createEditor({ fieldId, initial, field, epsilon }) {
  const inputs = {
    target: el('input', {
      id: fieldId('model-target'), type: 'text', value: initial.target ?? '', autocomplete: 'off', spellcheck: 'false', testid: 'question-model-target',
    }),
    features: el('input', {
      id: fieldId('model-features'), type: 'text', value: initial.features ?? '', autocomplete: 'off', spellcheck: 'false', testid: 'question-model-features',
    }),
    mechanism: el('select', { id: fieldId('model-mechanism'), testid: 'question-model-mechanism' },
      MECHANISMS.map(([value, text]) => el('option', { value, text, selected: value === (initial.modelMechanism ?? 'piecewise') }))),
    batch: numberInput({ id: fieldId('model-batch'), value: initial.batch ?? '', whole: true, testid: 'question-model-batch' }),
  };
  const mechanismRow = el('div', { class: 'field-row' }, [field(inputs.mechanism, 'Mechanism')]);
  return {
    nodes: [
      el('div', { class: 'field-row' }, [
        field(inputs.target, 'Target (question id)', 'The number the model predicts: the id of an earlier numeric question.'),
        field(inputs.features, 'Features (question ids)', 'The numbers it predicts from: ids of earlier numeric questions, separated by commas.'),
      ]),
      mechanismRow,
      el('div', { class: 'field-row' }, [
        field(inputs.batch, 'Respondents per round (optional)', 'Each round closes after this many reports and the model takes a step. Empty: the core picks one from ε and the number of features.'),
      ]),
    ],
    activate() {
      mechanismRow.append(epsilon.field);
    },
    sync() {
      epsilon.field.hidden = false;
      epsilon.setDisabled(false);
    },
    read() {
      return {
        target: inputs.target.value,
        features: inputs.features.value,
        modelMechanism: inputs.mechanism.value,
        batch: inputs.batch.value,
      };
    },
    // The budget and the round size come from the core, which checks the
    // model after the questions before it: its message names what is wrong
    // (e.g. features[1]: no question "x" before this one). No advisor.
    feedback(core, { checkInSurvey }) {
      const checked = checkInSurvey();
      if (!checked.ok) return { epsilon: undefined, privacy: checked.message, error: true };
      const { batch, components } = checked.summary;
      return {
        epsilon: checked.epsilon,
        privacy: `${formatEpsilon(checked.epsilon)}, on top of the budgets of the questions it uses; ` +
          `${formatInteger(components)} coefficients, trained in rounds of ${formatInteger(batch)} respondents`,
      };
    },
  };
}

// The kind's part of the definition (after id, text and type).
// The editor's values of a question of a survey's definition (for a new
// version made as a copy): the inverse of buildDefinition.
export function editorValues(question) {
  return {
    target: question.target,
    features: (question.features ?? []).join(', '),
    epsilon: question.epsilon === undefined ? undefined : String(question.epsilon),
    modelMechanism: question.mechanism,
    batch: question.batch === undefined ? undefined : String(question.batch),
  };
}

export function buildDefinition(values) {
  const batch = definitionNumber(values.batch, true);
  return {
    target: String(values.target ?? '').trim(),
    features: splitIds(values.features),
    epsilon: definitionNumber(values.epsilon),
    mechanism: values.modelMechanism ?? 'piecewise',
    ...(batch === undefined ? {} : { batch }),
  };
}
