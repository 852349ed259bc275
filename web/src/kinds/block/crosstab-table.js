import { el, replaceChildren, setText } from '../../shared/dom.js';
import { scrollBox } from '../../shared/scroll-box.js';
import { formatInteger, formatInterval, formatPercent } from '../../shared/format.js';

// A block's cross-tabulation (the results entry's "crosstab"): a table whose
// columns are the options of the last attribute and whose rows are the
// combinations of the others (cells arrive in mixed-radix order, the first
// attribute most significant, so each run of the last attribute's options is
// a row). Each cell shows the consistent estimate, shaded by its size, and
// under it the unbiased estimate with its 95% interval where there is one
// (Situation 1 in the default mode); otherwise the note says why not.
// The server's error (e.g. no group large enough) is shown instead of a table.
export function createCrossTab(questionId, attributes) {
  const heading = el('h3', { class: 'chart-title', testid: `crosstab-heading-${questionId}` });
  const facts = el('p', { class: 'hint', testid: `crosstab-facts-${questionId}` });
  const note = el('p', { class: 'notice hint', testid: `crosstab-note-${questionId}`, hidden: true });
  const error = el('p', { class: 'notice notice-error', role: 'alert', testid: `crosstab-error-message-${questionId}`, hidden: true });
  const captionId = `crosstab-caption-${questionId}`;
  const caption = el('p', { class: 'hint', id: captionId });
  const table = el('table', { class: 'results-table crosstab-table', 'aria-describedby': captionId, testid: `crosstab-table-${questionId}` });
  const tableBox = scrollBox(table);
  const element = el('section', { class: 'crosstab', 'aria-labelledby': `crosstab-heading-${questionId}`, testid: `crosstab-${questionId}` }, [
    heading,
    el('p', { class: 'hint' }, [
      'Choose the attributes under ',
      el('a', { href: `#crosstab-controls-${questionId}`, text: '“Cross-tabulation of a question’s parts”' }),
      ' above.',
    ]),
    facts,
    note,
    error,
    caption,
    tableBox,
  ]);
  const byId = new Map(attributes.map((attribute) => [attribute.id, attribute]));
  let shownKey = '';
  let cells = [];

  return {
    element,
    update(crosstab) {
      const failed = !crosstab || crosstab.error !== undefined;
      error.hidden = !failed;
      setText(error, failed ? `No cross-tabulation: ${crosstab?.error ?? 'the server sent none.'}` : '');
      for (const node of [facts, caption, tableBox]) node.hidden = failed;
      if (failed) {
        setText(heading, 'Cross-tabulation');
        note.hidden = true;
        return;
      }
      const chosen = crosstab.attributes.map((id) => byId.get(id) ?? { id, text: id, options: [] });
      setText(heading, `Cross-tabulation: ${chosen.map((attribute) => attribute.text).join(' × ')}`);
      setText(facts, factsText(crosstab, byId));
      note.hidden = !crosstab.note;
      setText(note, crosstab.note ? `Note: ${crosstab.note}` : '');
      const withIntervals = crosstab.cells.some((cell) => cell.ci_low !== null);
      setText(caption, withIntervals
        ? 'Share of respondents in each combination. In each cell: the consistent estimate in bold (shaded by size: at least 0, the cells add up to 100%), then the unbiased estimate and its 95% interval.'
        : 'Share of respondents in each combination: the consistent estimate (shaded by size: at least 0, the cells add up to 100%). No interval is given (see the note).');
      // The table is rebuilt when its shape changes, then updated in place.
      const key = JSON.stringify([crosstab.attributes, withIntervals]);
      if (key !== shownKey) {
        shownKey = key;
        cells = buildTable(table, questionId, chosen, crosstab.cells, withIntervals);
      }
      const largest = Math.max(...crosstab.cells.map((cell) => cell.consistent_frequency ?? 0), 0);
      crosstab.cells.forEach((cell, index) => cells[index]?.update(cell, largest));
    },
  };
}

function factsText(crosstab, byId) {
  const n = `n = ${formatInteger(crosstab.n)}`;
  if (crosstab.situation === 1) return `Estimated directly from the ${formatInteger(crosstab.n)} respondents who answered all of these attributes (${n}).`;
  const parts = (crosstab.parts ?? []).map((part) => part.map((id) => byId.get(id)?.text ?? id).join(' × '));
  return `Too few respondents answered all of these together: estimated as the product of ${parts.map((part) => `“${part}”`).join(' and ')}, assumed independent (${n}, the smaller group).`;
}

// Header rows and one row per combination of all but the last attribute;
// returns the cells' updaters in the results' order.
function buildTable(table, questionId, attributes, cells, withIntervals) {
  const last = attributes.at(-1);
  const leading = attributes.slice(0, -1);
  const columns = last.options.length || 1;
  const head = el('thead', {}, [
    el('tr', {}, [
      leading.map((attribute) => el('th', { scope: 'col', rowspan: '2', class: 'crosstab-attribute', text: attribute.text })),
      el('th', { scope: 'colgroup', colspan: String(columns), class: 'crosstab-last', text: last.text }),
    ]),
    el('tr', {}, last.options.map((option) => el('th', { scope: 'col', class: 'crosstab-option', text: option }))),
  ]);
  const updaters = [];
  const rows = [];
  for (let start = 0; start < cells.length; start += columns) {
    const labels = cells[start].options.slice(0, -1);
    const rowCells = cells.slice(start, start + columns).map((cell, offset) => {
      const updater = createCell(questionId, start + offset, withIntervals);
      updaters.push(updater);
      return updater.element;
    });
    rows.push(el('tr', {}, [labels.map((label) => el('th', { scope: 'row', text: label })), rowCells]));
  }
  replaceChildren(table, [head, el('tbody', {}, rows)]);
  return updaters;
}

function createCell(questionId, index, withIntervals) {
  const consistent = el('span', { class: 'crosstab-consistent' });
  const estimate = withIntervals ? el('span', { class: 'crosstab-estimate' }) : null;
  const interval = withIntervals ? el('span', { class: 'crosstab-interval' }) : null;
  const element = el('td', { class: 'number crosstab-cell', testid: `crosstab-cell-${questionId}-${index}` }, [consistent, estimate, interval]);
  return {
    element,
    update(cell, largest) {
      setText(consistent, formatPercent(cell.consistent_frequency));
      if (estimate) {
        setText(estimate, formatPercent(cell.frequency));
        setText(interval, formatInterval(cell.ci_low, cell.ci_high));
      }
      // The exact numbers, for machines (tests, screen-scrapers); the text is rounded.
      element.dataset.consistent = String(cell.consistent_frequency);
      element.dataset.value = String(cell.frequency);
      element.dataset.low = String(cell.ci_low);
      element.dataset.high = String(cell.ci_high);
      // Heat: the cell's share of the largest (CSSOM, allowed by the CSP).
      const shade = largest > 0 && cell.consistent_frequency > 0 ? cell.consistent_frequency / largest : 0;
      element.style.setProperty('--shade', shade.toFixed(3));
    },
  };
}
