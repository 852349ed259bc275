// The creation page's part of a block question: its label in the type
// selector, its fields in a question editor (the attributes, each with an id,
// a text and options; ε per answered attribute), its live budget from the
// core, and its part of the definition.
import { el } from '../../shared/dom.js';
import { formatEpsilon, formatNumber } from '../../shared/format.js';
import { attachNumberMessage, definitionNumber, numberInput } from '../../shared/number-input.js';

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
    feedback(core, { check }) {
      const checked = check();
      if (!checked.ok) return { epsilon: undefined, privacy: checked.message, error: true };
      const { epsilon_per_attribute: e, share_range: [low, high] } = checked.summary;
      const count = checked.definition.questions[0].attributes.length;
      return {
        epsilon: checked.epsilon,
        privacy: `${formatEpsilon(checked.epsilon)} for a respondent who answers all ${count} attributes ` +
          `(${formatNumber(e)} per answered attribute; one attribute’s share from ${formatNumber(low)} to ${formatNumber(high)}, as the respondent chooses)`,
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

// The list of attributes, with buttons to add and remove them. Adding or
// removing fires "change" on the list, so the page checks the definition again.
function createAttributesEditor({ fieldId, initial }) {
  let nextRow = 0;
  const rows = [];
  const list = el('ol', { class: 'consumer-list', testid: 'attribute-list' });
  const addButton = el('button', { type: 'button', class: 'button button-small', testid: 'add-attribute', text: 'Add an attribute' });
  const changed = () => list.dispatchEvent(new Event('change', { bubbles: true }));
  const renumber = () => {
    rows.forEach((row, index) => row.setPosition(index, rows.length));
    addButton.disabled = rows.length >= MOST_ATTRIBUTES;
  };
  const add = (values) => {
    const row = createAttributeRow(fieldId(`attribute-${nextRow++}`), values, () => remove(row));
    rows.push(row);
    list.append(row.element);
    renumber();
    return row;
  };
  const remove = (row) => {
    const index = rows.indexOf(row);
    rows.splice(index, 1);
    row.element.remove();
    renumber();
    changed();
    // The button that had focus is gone with its row: focus the row that took its place.
    rows[Math.min(index, rows.length - 1)].focus();
  };
  addButton.addEventListener('click', () => {
    const number = rows.length + 1;
    add({ id: `attribute_${number}`, text: `Attribute ${number}`, options: 'Yes\nNo' }).focus();
    changed();
  });
  (initial ?? DEFAULT_ATTRIBUTES).forEach(add);

  const element = el('fieldset', { class: 'consumers', 'aria-describedby': fieldId('attributes-hint') }, [
    el('legend', { text: 'Attributes (parts answered together)' }),
    el('p', {
      class: 'hint', id: fieldId('attributes-hint'),
      text: `${LEAST_ATTRIBUTES} to ${MOST_ATTRIBUTES} attributes, each a choice among 2 to 64 options. Respondents answer any of them (at least one) ` +
        'and choose how private each should be; the dashboard cross-tabulates them.',
    }),
    list,
    addButton,
  ]);
  return { element, read: () => rows.map((row) => row.read()) };
}

// One attribute: its id, its text and its options, one per line.
function createAttributeRow(rowId, values, onRemove) {
  const inputs = {
    id: el('input', { id: `${rowId}-id`, type: 'text', value: values.id, autocomplete: 'off', spellcheck: 'false', testid: 'attribute-id' }),
    text: el('input', { id: `${rowId}-text`, type: 'text', value: values.text, testid: 'attribute-text' }),
    options: el('textarea', { id: `${rowId}-options`, rows: '4', testid: 'attribute-options' }),
  };
  inputs.options.value = values.options;
  const heading = el('h4', { class: 'consumer-heading' });
  const removeButton = el('button', { type: 'button', class: 'button button-small button-danger', testid: 'remove-attribute', text: 'Remove' });
  removeButton.addEventListener('click', onRemove);
  const element = el('li', { class: 'consumer' }, [
    el('div', { class: 'consumer-toolbar' }, [heading, removeButton]),
    el('div', { class: 'field-row' }, [labelled(inputs.text, 'Text'), labelled(inputs.id, 'Id (letters, digits, - and _)')]),
    labelled(inputs.options, 'Options, one per line'),
  ]);
  return {
    element,
    setPosition(index, count) {
      heading.textContent = `Attribute ${index + 1}`;
      element.dataset.testid = `attribute-${index}`;
      removeButton.setAttribute('aria-label', `Remove attribute ${index + 1}`);
      removeButton.hidden = count <= LEAST_ATTRIBUTES;
    },
    focus: () => inputs.text.focus(),
    read: () => ({ id: inputs.id.value, text: inputs.text.value, options: inputs.options.value }),
  };
}

function labelled(input, label) {
  const message = input.dataset.number ? attachNumberMessage(input) : null;
  return el('div', { class: 'field' }, [el('label', { for: input.id, text: label }), input, message?.element]);
}
