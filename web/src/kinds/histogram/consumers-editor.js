// The creation page's list of a histogram question's data consumers: each
// row a name and either K equal bins or its own edges, with buttons to add
// and remove rows. One report serves them all.
import { el } from '../../shared/dom.js';
import { labelledField } from '../../shared/labelled-field.js';
import { definitionNumber, numberInput } from '../../shared/number-input.js';
import { createRowListEditor } from '../../shared/row-list-editor.js';

// The core's bound on consumers per question (core/kinds/histogram/consumer_requests.h).
const MAX_CONSUMERS = 16;

const DEFAULT_CONSUMERS = [{ name: 'tenths', mode: 'bins', bins: '10', edges: '' }];

// `fieldId(name)` makes the question's field ids unique on the page.
export function createConsumersEditor({ fieldId, initial }) {
  return createRowListEditor({
    fieldId, noun: 'consumer', title: 'Consumer', legend: 'Histograms asked for (data consumers)',
    hint: 'Each data consumer gets its own histogram of the answers, with equal bins or edges of its own. ' +
      'Their edges merge into one finer set of ranges, and one report per respondent serves them all.',
    addText: 'Add a data consumer',
    least: 1,  // a histogram question needs at least one consumer
    most: MAX_CONSUMERS,
    initial: initial ?? DEFAULT_CONSUMERS,
    newValues: (number) => ({ name: `consumer ${number}`, mode: 'bins', bins: '4', edges: '' }),
    renderRow: renderConsumerFields,
  });
}

// One consumer's fields: its name, "equal bins" or "edges", and the field for the one chosen.
function renderConsumerFields(rowId, values) {
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
  const binsField = labelledField(inputs.bins, 'Number of equal bins');
  const edgesField = labelledField(inputs.edges, 'Edges, comma-separated',
    el('p', { class: 'hint', id: `${rowId}-edges-hint`, text: 'From the lowest to the highest answer, increasing; a decimal point, no thousands separators.' }));
  const showMode = () => {
    binsField.hidden = inputs.mode.value !== 'bins';
    edgesField.hidden = inputs.mode.value !== 'edges';
  };
  inputs.mode.addEventListener('change', showMode);
  showMode();
  return {
    fields: [
      el('div', { class: 'field-row' }, [labelledField(inputs.name, 'Name'), labelledField(inputs.mode, 'Bins')]),
      binsField,
      edgesField,
    ],
    focus: () => inputs.name.focus(),
    read: () => ({ name: inputs.name.value, mode: inputs.mode.value, bins: inputs.bins.value, edges: inputs.edges.value }),
  };
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
