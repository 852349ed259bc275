// One set of a histogram question's bins on the dashboard (a data
// consumer's, or the analyst's own after collection): the bar chart with 95%
// error bars, and the table that carries every number. The rows are rebuilt
// only when the bins' edges change (the analyst's own bins can).
import { el, replaceChildren, setText } from '../../shared/dom.js';
import { formatInterval, formatPercent } from '../../shared/format.js';
import { scrollBox } from '../../shared/scroll-box.js';
import { createHistogramChart } from './histogram-chart.js';
import { edgeFormatter, rangeLabel } from './ranges.js';

// `key`: unique on the page, for ids and test ids ("salary-0", "salary-custom");
// `range`: the question's [a, b]; `withBias`: a column for the most an
// approximate bin can be off (the analyst's own bins).
export function createBinsView({ key, title, range, unit, withBias = false }) {
  const tableId = `bins-table-${key}`;
  const canvas = el('canvas', {
    role: 'img', testid: `histogram-chart-${key}`, 'aria-describedby': tableId,
    'aria-label': `Bar chart of the estimated share of answers per bin (${title}), with 95% error bars. The table below lists the numbers.`,
  });
  const body = el('tbody');
  const headings = ['Estimate', '95% CI', 'Consistent', withBias ? 'Bias bound' : null].filter(Boolean);
  const tableBox = scrollBox(el('table', { id: tableId, class: 'results-table', 'aria-label': `${title}: estimated share of answers per bin`, testid: `histogram-table-${key}` }, [
    el('thead', {}, [el('tr', {}, [
      el('th', { scope: 'col', text: unit ? `Bin (${unit})` : 'Bin' }),
      headings.map((text) => el('th', { scope: 'col', text })),
    ])]),
    body,
  ]), { label: `${title}: table of bins` });
  const element = el('div', { class: 'bins-view' }, [
    el('div', { class: 'chart-box chart-box-histogram' }, [canvas]),
    tableBox,
  ]);
  const chart = createHistogramChart(canvas, unit ? `bin (${unit})` : 'bin');
  let rows = [];
  let edgesKey = '';

  return {
    element,
    // `bins`: the results' bins ({low, high, frequency, ci_low, ci_high, consistent_frequency, ...}).
    update(bins) {
      const edges = bins.length ? [bins[0].low, ...bins.map((bin) => bin.high)] : [];
      const format = edgeFormatter(edges, range);
      const labels = bins.map((bin) => rangeLabel(bin.low, bin.high, format));
      if (JSON.stringify(edges) !== edgesKey) {
        edgesKey = JSON.stringify(edges);
        rows = labels.map((label, index) => createRow(key, label, index, withBias));
        replaceChildren(body, rows.map((row) => row.element));
        setTall(tableBox, rows.length > TALL_TABLE);
      }
      bins.forEach((bin, index) => rows[index].update(bin));
      chart.update(labels, bins);
    },
    destroy: () => chart.destroy(),
  };
}

// More rows than this scroll up and down too (a consumer may ask for a
// hundred bins), in the box that already takes focus (scrollBox).
const TALL_TABLE = 20;

function setTall(box, tall) {
  box.classList.toggle('table-tall', tall);
}

function createRow(key, label, index, withBias) {
  const cells = {
    estimate: el('td', { class: 'number', testid: `estimate-${key}-${index}` }),
    interval: el('td', { class: 'number interval', testid: `ci-${key}-${index}` }),
    consistent: el('td', { class: 'number interval', testid: `consistent-${key}-${index}` }),
    bias: withBias ? el('td', { class: 'number', testid: `bias-${key}-${index}` }) : null,
  };
  const element = el('tr', { testid: `bin-${key}-${index}` }, [
    el('th', { scope: 'row', class: 'bin-label', text: label }), cells.estimate, cells.interval, cells.consistent, cells.bias,
  ]);
  return {
    element,
    update(bin) {
      setText(cells.estimate, formatPercent(bin.frequency));
      setText(cells.interval, formatInterval(bin.ci_low, bin.ci_high));
      setText(cells.consistent, consistentText(bin));
      // An exact bin (a sum of fine cells) cannot be off; an approximate one by at most its bound.
      if (cells.bias) setText(cells.bias, bin.exact ? 'exact' : `±${formatPercent(bin.bias_bound)}`);
      // The exact numbers, for machines (tests, screen-scrapers); the text is rounded.
      cells.estimate.dataset.value = String(bin.frequency);
      cells.interval.dataset.low = String(bin.ci_low);
      cells.interval.dataset.high = String(bin.ci_high);
    },
  };
}

// The consumers' bins carry an interval of their own for the consistent
// estimate; the analyst's bins only the estimate.
function consistentText(bin) {
  if (bin.consistent_ci_low === null || bin.consistent_ci_low === undefined) return formatPercent(bin.consistent_frequency);
  return `${formatPercent(bin.consistent_frequency)} (${formatInterval(bin.consistent_ci_low, bin.consistent_ci_high)})`;
}
