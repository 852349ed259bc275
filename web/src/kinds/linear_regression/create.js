// The creation page's part of a model question: its label in the type
// selector, its fields in a question editor (the target's and the features'
// question ids, ε, the mechanism and an optional round size), its live
// budget from the core (checked after the survey's earlier questions, which
// the model names), and its part of the definition.
import { el, replaceChildren } from '../../shared/dom.js';
import { formatEpsilon, formatInteger } from '../../shared/format.js';
import { definitionNumber, numberInput } from '../../shared/number-input.js';
import { renderModelAdvice } from './advisor-table.js';

export const label = 'Linear model of earlier numbers (trained in rounds)';

const MECHANISMS = [
  ['piecewise', 'Piecewise'],
  ['duchi', 'Duchi et al.'],
];

// "age, hours" (or "age hours") -> ["age", "hours"]
function splitIds(text) {
  return String(text ?? '').split(/[\s,;]+/).map((id) => id.trim()).filter((id) => id.length > 0);
}

// The target and the features are picked from the survey's earlier numeric
// questions (a model can only use those), not typed: a select for the target
// and a checkbox per question for the features, rebuilt when the earlier
// questions change. Ids chosen before (a copy of a survey) stay chosen.
function createPickers(fieldId, initial) {
  let target = initial.target ?? '';
  let features = new Set(splitIds(initial.features));
  let key = null;
  const targetSelect = el('select', { id: fieldId('model-target'), testid: 'question-model-target' });
  const featureBox = el('fieldset', { class: 'model-features', testid: 'question-model-features' });
  const featureHint = el('p', { class: 'hint', id: fieldId('model-features-hint'),
    text: 'The numbers it predicts from: tick one or more earlier numeric questions (not the target).' });
  targetSelect.addEventListener('change', () => { target = targetSelect.value; });
  const label = (question) => (question.text.trim() ? `${question.id} — ${question.text.trim()}` : question.id);
  return {
    targetSelect,
    featureField: el('div', { class: 'field' }, [featureBox, featureHint]),
    // `earlier`: the editor values of the questions before this one.
    update(earlier) {
      const numeric = earlier.filter((question) => question.type === 'numeric' && String(question.id).trim() !== '')
        .map((question) => ({ id: String(question.id).trim(), text: String(question.text ?? '') }));
      const nextKey = JSON.stringify(numeric);
      if (nextKey === key) return;
      key = nextKey;
      const known = new Set(numeric.map((question) => question.id));
      const kept = [...new Set([target, ...features])].filter((id) => id && !known.has(id)).map((id) => ({ id, text: '' }));
      const choices = [...numeric, ...kept];
      replaceChildren(targetSelect, [
        el('option', { value: '', text: choices.length ? 'Choose a question' : 'No numeric question before this one' }),
        ...choices.map((question) => el('option', { value: question.id, text: label(question), selected: question.id === target })),
      ]);
      replaceChildren(featureBox, [
        el('legend', { text: 'Features' }),
        choices.length === 0 ? el('p', { class: 'hint', text: 'Add numeric questions before this one: the model is built from their answers.' }) : null,
        ...choices.map((question) => {
          const id = fieldId(`model-feature-${question.id}`);
          const box = el('input', { type: 'checkbox', id, value: question.id, checked: features.has(question.id), testid: `question-model-feature-${question.id}` });
          box.addEventListener('change', () => {
            if (box.checked) features.add(question.id);
            else features.delete(question.id);
          });
          return el('label', { class: 'choice', for: id }, [box, el('span', { text: label(question) })]);
        }),
      ]);
      featureBox.setAttribute('aria-describedby', featureHint.id);
    },
    read() {
      // In the order of the questions, whatever the order of ticking.
      const order = [...featureBox.querySelectorAll('input[type="checkbox"]')].map((box) => box.value);
      return { target, features: order.filter((id) => features.has(id)).join(', ') };
    },
  };
}

// The kind's fields in one question editor. `field(input, label, hint)` lays
// out a labelled field; `epsilon` is the editor's privacy budget field, which
// this kind places next to its mechanism.
export function createEditor({ fieldId, initial, field, epsilon }) {
  const pickers = createPickers(fieldId, initial);
  const inputs = {
    mechanism: el('select', { id: fieldId('model-mechanism'), testid: 'question-model-mechanism' },
      MECHANISMS.map(([value, text]) => el('option', { value, text, selected: value === (initial.modelMechanism ?? 'piecewise') }))),
    batch: numberInput({ id: fieldId('model-batch'), value: initial.batch ?? '', whole: true, testid: 'question-model-batch' }),
  };
  pickers.update([]);
  const mechanismRow = el('div', { class: 'field-row' }, [field(inputs.mechanism, 'Mechanism')]);
  return {
    nodes: [
      el('div', { class: 'field-row' }, [
        field(pickers.targetSelect, 'Target', 'The number the model predicts: an earlier numeric question.'),
        pickers.featureField,
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
        ...pickers.read(),
        modelMechanism: inputs.mechanism.value,
        batch: inputs.batch.value,
      };
    },
    // The budget and the round size come from the core, which checks the
    // model after the questions before it: its message names what is wrong
    // (e.g. features[1]: no question "x" before this one). The advice: how the
    // expected respondents fall into rounds and chains, and the coefficients'
    // least error.
    feedback(core, { checkInSurvey, earlier = [], respondents, index }) {
      pickers.update(earlier);
      const checked = checkInSurvey();
      if (!checked.ok) return { epsilon: undefined, privacy: checked.message, error: true };
      const { batch, components } = checked.summary;
      const questions = checked.definition.questions;
      const question = questions[questions.length - 1];
      return {
        epsilon: checked.epsilon,
        privacy: `${formatEpsilon(checked.epsilon)}, on top of the budgets of the questions it uses; ` +
          `${formatInteger(components)} coefficients, trained in rounds of ${formatInteger(batch)} respondents`,
        adviceKey: JSON.stringify([questions, respondents, index]),
        advice: () => {
          const unit = (id) => questions.find((entry) => entry.id === id)?.unit ?? '';
          const units = { target: unit(question.target), features: Object.fromEntries(question.features.map((id) => [id, unit(id)])) };
          try {
            return renderModelAdvice(core.designAdvice(checked.definition, question.id, respondents), units, index);
          } catch (error) {
            return el('p', { class: 'hint', testid: `advice-error-${index}`, text: `Advisor: ${error.message}` });
          }
        },
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
