// The creation page's list of a histogram question's data consumers: each
// row a name and either K equal bins or its own edges, with buttons to add
// and remove rows. One report serves them all.
import { el } from '../../shared/dom.js';
import { attachNumberMessage, definitionNumber, numberInput } from '../../shared/number-input.js';

// The core's bound on consumers per question (core/kinds/histogram/consumer_requests.h).
const MAX_CONSUMERS = 16;

const DEFAULT_CONSUMERS = [{ name: 'tenths', mode: 'bins', bins: '10', edges: '' }];

// `fieldId(name)` makes the question's field ids unique on the page. Adding
// or removing a row fires "change" on the list, so the page checks the
// definition again, as it does after typing.
export function createConsumersEditor({ fieldId, initial }) {
  let nextRow = 0;
  const rows = [];
  const list = el('ol', { class: 'consumer-list', testid: 'consumer-list' });
  const addButton = el('button', { type: 'button', class: 'button button-small', testid: 'add-consumer', text: 'Add a data consumer' });
  const changed = () => list.dispatchEvent(new Event('change', { bubbles: true }));

  const renumber = () => {
    rows.forEach((row, index) => row.setPosition(index, rows.length));
    addButton.disabled = rows.length >= MAX_CONSUMERS;
  };
  const add = (values) => {
    const row = createConsumerRow(fieldId(`consumer-${nextRow++}`), values, () => remove(row));
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
    add({ name: `consumer ${rows.length + 1}`, mode: 'bins', bins: '4', edges: '' }).focus();
    changed();
  });
  (initial ?? DEFAULT_CONSUMERS).forEach(add);

  const element = el('fieldset', { class: 'consumers', 'aria-describedby': fieldId('consumers-hint') }, [
    el('legend', { text: 'Histograms asked for (data consumers)' }),
    el('p', {
      class: 'hint', id: fieldId('consumers-hint'),
      text: 'Each data consumer gets its own histogram of the answers, with equal bins or edges of its own. ' +
        'Their edges merge into one finer set of ranges, and one report per respondent serves them all.',
    }),
    list,
    addButton,
  ]);
  return { element, read: () => rows.map((row) => row.read()) };
}

// One consumer: its name, "equal bins" or "edges", and the field for the one chosen.
function createConsumerRow(rowId, values, onRemove) {
  const inputs = {
    name: el('input', { id: `${rowId}-name`, type: 'text', value: values.name, autocomplete: 'off', testid: 'consumer-name' }),
    mode: el('select', { id: `${rowId}-mode`, testid: 'consumer-mode' }, [
      el('option', { value: 'bins', text: 'Equal bins', selected: values.mode === 'bins' }),
      el('option', { value: 'edges', text: 'Its own edges', selected: values.mode === 'edges' }),
    ]),
    bins: numberInput({ id: `${rowId}-bins`, value: values.bins, whole: true, testid: 'consumer-bins' }),
    edges: el('input', {
      id: `${rowId}-edges`, type: 'text', value: values.edges, autocomplete: 'off', spellcheck: 'false',
      inputmode: 'decimal', placeholder: 'e.g. 0, 10, 25, 100', testid: 'consumer-edges', 'aria-describedby': `${rowId}-edges-hint`,
    }),
  };
  const heading = el('h4', { class: 'consumer-heading' });
  const removeButton = el('button', { type: 'button', class: 'button button-small button-danger', testid: 'remove-consumer', text: 'Remove' });
  removeButton.addEventListener('click', onRemove);
  const binsField = labelled(inputs.bins, 'Number of equal bins');
  const edgesField = labelled(inputs.edges, 'Edges, comma-separated',
    el('p', { class: 'hint', id: `${rowId}-edges-hint`, text: 'From the lowest to the highest answer, increasing; a decimal point, no thousands separators.' }));
  const showMode = () => {
    binsField.hidden = inputs.mode.value !== 'bins';
    edgesField.hidden = inputs.mode.value !== 'edges';
  };
  inputs.mode.addEventListener('change', showMode);
  showMode();

  const element = el('li', { class: 'consumer' }, [
    el('div', { class: 'consumer-toolbar' }, [heading, removeButton]),
    el('div', { class: 'field-row' }, [labelled(inputs.name, 'Name'), labelled(inputs.mode, 'Bins')]),
    binsField,
    edgesField,
  ]);
  return {
    element,
    setPosition(index, count) {
      heading.textContent = `Consumer ${index + 1}`;
      element.dataset.testid = `consumer-${index}`;
      removeButton.setAttribute('aria-label', `Remove consumer ${index + 1}`);
      removeButton.hidden = count <= 1;  // a histogram question needs at least one consumer
    },
    focus: () => inputs.name.focus(),
    read: () => ({ name: inputs.name.value, mode: inputs.mode.value, bins: inputs.bins.value, edges: inputs.edges.value }),
  };
}

// A labelled field; a number field gets its message slot (shared/number-input.js).
function labelled(input, label, hint = null) {
  const message = input.dataset.number ? attachNumberMessage(input) : null;
  return el('div', { class: 'field' }, [el('label', { for: input.id, text: label }), input, message?.element, hint]);
}

// A consumer's part of the definition. Edges are split at commas (so a
// decimal comma cannot be used here), each read by the shared parser; text
// it cannot read is kept as text, so that the core refuses it naming the
// field (histograms[0].edges[2]) rather than the page dropping it.
export function buildConsumer({ name, mode, bins, edges }) {
  if (mode === 'edges') {
    return { name: name.trim(), edges: edges.split(',').map((text) => definitionNumber(text) ?? text.trim()) };
  }
  return { name: name.trim(), bins: definitionNumber(bins, true) };
}
