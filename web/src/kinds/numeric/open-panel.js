// The dashboard's panel of a numeric question asked openly (shared/open.js):
// the answers are sent as given, so there is no mechanism to undo, no density
// to reconstruct and nothing to tune. Its facts, a compact table of the exact
// statistics (mean, standard deviation, median, quartiles) with the core's
// 95% intervals and notes, and the histogram (bins of 1 to 4 respondents not
// shown). Built once; update() only changes text and chart data.
import { el, setText } from '../../shared/dom.js';
import { scrollBox } from '../../shared/scroll-box.js';
import { formatInteger, formatNumber, withUnit } from '../../shared/format.js';
import { SMALL_COUNT } from '../../shared/open.js';
import { createResultCard } from '../../shared/result-card.js';
import { createHistogramChart } from './charts.js';

const STATISTICS = [
  ['mean', 'Mean'],
  ['std_dev', 'Standard deviation'],
  ['median', 'Median'],
  ['lower_quartile', 'Lower quartile'],
  ['upper_quartile', 'Upper quartile'],
];

export const OPEN_PRIVACY = 'asked openly: not protected';

export function createOpenPanel(question, index) {
  const id = question.id;
  const unit = question.unit ?? '';
  const text = question.text ?? question.id;
  const tableId = `question-table-${index}`;
  const histogramCanvas = el('canvas', {
    role: 'img', testid: `histogram-${id}`, 'aria-describedby': `${tableId}-histogram-caption`,
    'aria-label': `Bar chart of the share of answers per bin for “${text}”, with 95% error bars for the population.`,
  });
  const histogramCaption = el('p', { class: 'hint chart-caption', id: `${tableId}-histogram-caption`, testid: `histogram-caption-${id}` });
  const rows = STATISTICS.map(([key, label]) => createRow(id, key, unit ? `${label} (${unit})` : label));
  const card = createResultCard(question, index, {
    variant: 'question-result-open',
    facts: [
      { key: 'n', label: 'Respondents (n)' },
      { key: 'epsilon', label: 'Privacy', text: OPEN_PRIVACY },
      { key: 'mechanism', label: 'Mechanism', text: 'none: sent as given, counted exactly' },
    ],
    error: (message) => `The results failed: ${message}`,
    body: [
      scrollBox(el('table', { id: tableId, class: 'results-table', testid: `table-${id}` }, [
        el('caption', { text: 'The answers’ own statistics (asked openly: exact), with 95% intervals for the population the respondents were drawn from.' }),
        el('thead', {}, [el('tr', {}, ['Statistic', 'Value', '95% interval'].map((label) => el('th', { scope: 'col', text: label })))]),
        el('tbody', {}, rows.flatMap((row) => row.elements)),
      ])),
      el('h3', { class: 'chart-title', text: 'Histogram' }),
      el('div', { class: 'chart-box chart-box-numeric' }, [histogramCanvas]),
      histogramCaption,
    ],
  });
  const histogram = createHistogramChart(histogramCanvas, unit);
  return {
    element: card.element,
    update(result) {
      if (!card.update(result)) return;
      setText(card.facts.n, formatInteger(result.n));
      rows.forEach((row) => row.update(result.statistics?.[row.key] ?? null));
      histogram.update(result.histogram ?? null);
      const hidden = result.histogram ? result.histogram.value.filter((value) => value === null).length : 0;
      const hiddenText = hidden === 0 ? `Bins of 1 to ${SMALL_COUNT - 1} respondents would not be shown.`
        : `${formatInteger(hidden)} ${hidden === 1 ? 'bin has' : 'bins have'} 1 to ${SMALL_COUNT - 1} respondents: not shown (no bar, no interval).`;
      setText(histogramCaption, result.histogram
        ? `Share of answers per bin of width ${withUnit(formatNumber(result.histogram.bin_width), unit)}, with 95% intervals for the population (exact binomial). ${hiddenText}`
        : 'No histogram: see the warning above.');
    },
    destroy: () => histogram.destroy(),
  };
}

function createRow(questionId, key, label) {
  const value = el('td', { class: 'number', testid: `stat-${questionId}-${key}` });
  const interval = el('td', { class: 'number interval', testid: `stat-ci-${questionId}-${key}` });
  // How the value and its interval are made (the core's note: t interval, order statistics, the bin's width).
  const note = el('td', { colspan: '3', class: 'hint statistic-note', testid: `stat-note-${questionId}-${key}` });
  const noteRow = el('tr', { class: 'statistic-note-row', hidden: true }, [note]);
  return {
    key,
    elements: [el('tr', {}, [el('th', { scope: 'row', text: label }), value, interval]), noteRow],
    update(statistic) {
      const known = typeof statistic?.value === 'number';
      const bounded = typeof statistic?.low === 'number' && typeof statistic?.high === 'number';
      setText(value, known ? formatNumber(statistic.value) : '—');
      setText(interval, bounded ? `${formatNumber(statistic.low)}\u00a0to ${formatNumber(statistic.high)}` : '—');
      noteRow.hidden = !statistic?.note;
      setText(note, statistic?.note ? `${statistic.note}.` : '');
      value.dataset.value = String(statistic?.value ?? '');
      interval.dataset.low = String(statistic?.low ?? '');
      interval.dataset.high = String(statistic?.high ?? '');
    },
  };
}
