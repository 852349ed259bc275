// A histogram question's median and quartiles with their 95% intervals, in
// the question's unit. The reports place an answer only within its fine
// range, so the intervals run from one fine edge to another.
import { el, setText } from '../../shared/dom.js';
import { scrollBox } from '../../shared/scroll-box.js';
import { edgeFormatter } from './ranges.js';

const QUANTILES = [
  ['lower_quartile', 'Lower quartile'],
  ['median', 'Median'],
  ['upper_quartile', 'Upper quartile'],
];

// `range`: the question's [a, b], which sets the precision shown (whole
// dollars on [0, 300000]).
export function createQuantilesTable(questionId, range, unit) {
  const format = edgeFormatter([], range);
  const rows = QUANTILES.map(([key, label]) => createRow(questionId, key, label, unit, format));
  const element = scrollBox(el('table', { class: 'results-table', testid: `quantiles-${questionId}` }, [
    el('caption', { text: 'Quartiles of the true answers, estimated from the reports, with 95% intervals (from fine edge to fine edge: the reports place an answer only within its fine range).' }),
    el('thead', {}, [el('tr', {}, ['Statistic', 'Estimate', '95% interval'].map((text) => el('th', { scope: 'col', text })))]),
    el('tbody', {}, rows.map((row) => row.element)),
  ]));
  return {
    element,
    // `quantiles`: the results' quantiles, or null (no reports yet).
    update(quantiles) {
      rows.forEach((row) => row.update(quantiles?.[row.key] ?? null));
    },
  };
}

function createRow(questionId, key, label, unit, format) {
  const estimate = el('td', { class: 'number', testid: `quantile-${questionId}-${key}` });
  const interval = el('td', { class: 'number interval', testid: `quantile-ci-${questionId}-${key}` });
  return {
    key,
    element: el('tr', {}, [el('th', { scope: 'row', text: unit ? `${label} (${unit})` : label }), estimate, interval]),
    update(quantile) {
      const known = typeof quantile?.value === 'number';
      setText(estimate, known ? format(quantile.value) : '—');
      setText(interval, known ? `${format(quantile.low)}\u00a0to ${format(quantile.high)}` : '—');
      // The exact numbers, for machines (tests, screen-scrapers); the text is rounded.
      estimate.dataset.value = String(quantile?.value ?? '');
      interval.dataset.low = String(quantile?.low ?? '');
      interval.dataset.high = String(quantile?.high ?? '');
    },
  };
}
