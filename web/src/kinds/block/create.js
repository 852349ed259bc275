// The creation page's part of a block question: its label in the type
// selector, its fields in a question editor (the attributes, each with an id,
// a text and options; ε per answered attribute), its live budget from the
// core with each attribute's expected precision, and its part of the definition.
import { el } from '../../shared/dom.js';
import { formatEpsilon, formatNumber } from '../../shared/format.js';
import { labelledField } from '../../shared/labelled-field.js';
import { definitionNumber, numberInput } from '../../shared/number-input.js';
import { createRowListEditor } from '../../shared/row-list-editor.js';
import { renderBlockAdvice } from './advisor-table.js';

export const label = 'Several related choices (block)';

// The core's bounds on a block (core/kinds/block/block_definition.h).
const MOST_ATTRIBUTES = 12;
const LEAST_ATTRIBUTES = 2;

const DEFAULT_ATTRIBUTES = [
  { id: 'age', text: 'Your age group', options: '18-34\n35-49\n50-64\n65+' },
  { id: 'smoker', text: 'Do you smoke?', options: 'Yes\nNo' },
];

function splitOptions(text) {
  return text.split('\n').map((line) => line.trim()).filter((line) => line.length > 0);
}

// The kind's fields in one question editor. `field(input, label, hint)` lays
// out a labelled field; `epsilon` is the editor's privacy budget field, which
// a block does not use (hidden): its budget is ε per answered attribute,
// a field of its own, so that the label says what the number is.
export function createEditor({ fieldId, initial, field, epsilon }) {
  const perAttribute = numberInput({ id: fieldId('block-epsilon'), value: initial.epsilonPerAttribute ?? '1', testid: 'question-epsilon-per-attribute' });
  const attributes = createAttributesEditor({ fieldId, initial: initial.attributes });
  const epsilonField = field(perAttribute, 'Privacy budget ε per answered attribute',
    'A respondent who answers m attributes has m × ε, shared between them by how private they want each (0.01 to 30; 1,5 or 1.5).');
  return {
    nodes: [attributes.element, el('div', { class: 'field-row' }, [epsilonField])],
    activate() {},
    sync() {
      epsilon.field.hidden = true;
      epsilon.setDisabled(false);
    },
    read() {
      return { epsilonPerAttribute: perAttribute.value, attributes: attributes.read() };
    },
    // The budget comes from the core, whose message names what is wrong
    // (e.g. attributes[1].options). No advisor.
    feedback(core, { check, respondents, index }) {
      const checked = check();
      if (!checked.ok) return { epsilon: undefined, privacy: checked.message, error: true };
      const { epsilon_per_attribute: e, share_range: [low, high] } = checked.summary;
      const question = checked.definition.questions[0];
      const count = question.attributes.length;
      return {
        epsilon: checked.epsilon,
        privacy: `${formatEpsilon(checked.epsilon)} for a respondent who answers all ${count} attributes ` +
          `(${formatNumber(e)} per answered attribute; one attribute’s share from ${formatNumber(low)} to ${formatNumber(high)}, as the respondent chooses)`,
        // Each attribute's share precision at the ε share of each privacy setting.
        adviceKey: JSON.stringify([question, respondents, index]),
        advice: () => {
          try {
            return renderBlockAdvice(core.designAdvice(checked.definition, question.id, respondents), index);
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
  const perAttribute = question.mechanism?.epsilon_per_attribute;
  return {
    epsilonPerAttribute: perAttribute === undefined ? undefined : String(perAttribute),
    attributes: (question.attributes ?? []).map((attribute) => ({
      id: attribute.id, text: attribute.text, options: (attribute.options ?? []).join('\n'),
    })),
  };
}

export function buildDefinition(values) {
  return {
    attributes: values.attributes.map((attribute) => ({
      id: attribute.id.trim(), text: attribute.text.trim(), options: splitOptions(attribute.options),
    })),
    mechanism: { name: 'pmoue', epsilon_per_attribute: definitionNumber(values.epsilonPerAttribute) },
  };
}

// The list of attributes, with buttons to add and remove them.
function createAttributesEditor({ fieldId, initial }) {
  return createRowListEditor({
    fieldId, noun: 'attribute', title: 'Attribute', legend: 'Attributes (parts answered together)',
    hint: `${LEAST_ATTRIBUTES} to ${MOST_ATTRIBUTES} attributes, each a choice among 2 to 64 options. Respondents answer any of them (at least one) ` +
      'and choose how private each should be; the dashboard cross-tabulates them.',
    addText: 'Add an attribute',
    least: LEAST_ATTRIBUTES,
    most: MOST_ATTRIBUTES,
    initial: initial ?? DEFAULT_ATTRIBUTES,
    newValues: (number) => ({ id: `attribute_${number}`, text: `Attribute ${number}`, options: 'Yes\nNo' }),
    renderRow: renderAttributeFields,
  });
}

// One attribute's fields: its id, its text and its options, one per line.
function renderAttributeFields(rowId, values) {
  const inputs = {
    id: el('input', { id: `${rowId}-id`, type: 'text', value: values.id, autocomplete: 'off', spellcheck: 'false', testid: 'attribute-id' }),
    text: el('input', { id: `${rowId}-text`, type: 'text', value: values.text, testid: 'attribute-text' }),
    options: el('textarea', { id: `${rowId}-options`, rows: '4', testid: 'attribute-options' }),
  };
  inputs.options.value = values.options;
  return {
    fields: [
      el('div', { class: 'field-row' }, [labelledField(inputs.text, 'Text'), labelledField(inputs.id, 'Id (letters, digits, - and _)')]),
      labelledField(inputs.options, 'Options, one per line'),
    ],
    focus: () => inputs.text.focus(),
    read: () => ({ id: inputs.id.value, text: inputs.text.value, options: inputs.options.value }),
  };
}
