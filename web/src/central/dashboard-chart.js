import { BAR_COLOR, GRID_COLOR, createErrorBarChart, sameData, wrapLabel } from '../shared/error-bar-chart.js';
import { formatNumber } from '../shared/format.js';

// One release's bars for a question answered in confidence: a noisy count
// per bin (or the consistent counts), with its 95% error bar where the bin
// has an interval of its own. A bin that shares a noise group has none
// (the group's interval is for its mean: the table says so) and is drawn
// lighter. Noisy counts can be negative: the axis shows them as they are.
// Updates in place.

export const OWN_INTERVAL_COLOR = BAR_COLOR;
export const GROUPED_COLOR = '#9bb5ec';
const LABEL_LINE_LENGTH = 16;

// `yTitle`: what the bars count ("noisy count of answers").
export function createCentralChart(canvas, yTitle) {
  let current = [];
  const chart = createErrorBarChart(canvas, {
    label: yTitle,
    bar: { backgroundColor: [], borderRadius: 2, categoryPercentage: 0.9, barPercentage: 0.92 },
    scales: {
      x: { grid: { display: false }, ticks: { maxRotation: 50, autoSkip: true } },
      y: {
        beginAtZero: true,
        title: { display: true, text: yTitle },
        ticks: { callback: (value) => formatNumber(value), maxTicksLimit: 6 },
        grid: { color: GRID_COLOR },
      },
    },
    tooltip: { label: (item) => describeBar(current[item.dataIndex]) },
  });
  return {
    // `bars`: [{label, value, ci_low, ci_high, grouped}] (ci null: no error bar).
    update(bars) {
      current = bars;
      const labels = bars.map((bar) => wrapLabel(bar.label, LABEL_LINE_LENGTH));
      const data = bars.map((bar) => ({
        y: bar.value ?? 0,
        yMin: bar.ci_low ?? null,
        yMax: bar.ci_high ?? null,
      }));
      const colors = bars.map((bar) => (bar.grouped ? GROUPED_COLOR : OWN_INTERVAL_COLOR));
      const dataset = chart.data.datasets[0];
      if (sameData(labels, chart.data.labels) && sameData(data, dataset.data) && sameData(colors, dataset.backgroundColor)) return;
      chart.data.labels = labels;
      dataset.data = data;
      dataset.backgroundColor = colors;
      chart.update('none');
    },
    destroy: () => chart.destroy(),
  };
}

function describeBar(bar) {
  if (!bar) return '';
  const interval = bar.ci_low === null || bar.ci_low === undefined
    ? (bar.grouped ? ' (shares a noise group: no interval of its own)' : '')
    : ` (95% interval ${formatNumber(bar.ci_low)} to ${formatNumber(bar.ci_high)})`;
  return `${formatNumber(bar.value)}${interval}`;
}
