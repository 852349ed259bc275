// An editable list of numbered rows on the creation page (a block's
// attributes, a histogram's data consumers): each row a card with its
// heading, its fields and a Remove button, and an Add button below. Adding or
// removing fires "change" on the list, so the page checks the definition
// again, as it does after typing.
import { el } from './dom.js';

// `noun` names the rows in test ids and labels ("attribute": attribute-list,
// add-attribute, remove-attribute, attribute-<index>; `title` "Attribute":
// "Attribute 2", "Remove attribute 2"). `fieldId(name)` makes ids unique on
// the page. `least`/`most`: how many rows there may be. `renderRow(rowId,
// values)` gives {fields: [elements], focus(), read()}; `newValues(number)`
// the values of the row added as the number-th.
export function createRowListEditor({ fieldId, noun, title, legend, hint, addText, least, most, initial, newValues, renderRow }) {
  let nextRow = 0;
  const rows = [];
  const list = el('ol', { class: 'consumer-list', testid: `${noun}-list` });
  const addButton = el('button', { type: 'button', class: 'button button-small', testid: `add-${noun}`, text: addText });
  const changed = () => list.dispatchEvent(new Event('change', { bubbles: true }));
  const renumber = () => {
    rows.forEach((row, index) => row.setPosition(index, rows.length));
    addButton.disabled = rows.length >= most;
  };
  const add = (values) => {
    const row = createRow({ rowId: fieldId(`${noun}-${nextRow++}`), values, noun, title, least, renderRow, onRemove: () => remove(row) });
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
    add(newValues(rows.length + 1)).focus();
    changed();
  });
  initial.forEach(add);

  const hintId = fieldId(`${noun}s-hint`);
  const element = el('fieldset', { class: 'consumers', 'aria-describedby': hintId }, [
    el('legend', { text: legend }),
    el('p', { class: 'hint', id: hintId, text: hint }),
    list,
    addButton,
  ]);
  return { element, read: () => rows.map((row) => row.read()) };
}

function createRow({ rowId, values, noun, title, least, renderRow, onRemove }) {
  const { fields, focus, read } = renderRow(rowId, values);
  const heading = el('h4', { class: 'consumer-heading' });
  const removeButton = el('button', { type: 'button', class: 'button button-small button-danger', testid: `remove-${noun}`, text: 'Remove' });
  removeButton.addEventListener('click', onRemove);
  const element = el('li', { class: 'consumer' }, [el('div', { class: 'consumer-toolbar' }, [heading, removeButton]), fields]);
  return {
    element,
    setPosition(index, count) {
      heading.textContent = `${title} ${index + 1}`;
      element.dataset.testid = `${noun}-${index}`;
      removeButton.setAttribute('aria-label', `Remove ${noun} ${index + 1}`);
      removeButton.hidden = count <= least;
    },
    focus,
    read,
  };
}
