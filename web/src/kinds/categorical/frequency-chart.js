import { GRID_COLOR, createErrorBarChart, sameData, wrapLabel } from '../../shared/error-bar-chart.js';
import { formatInterval, formatPercent, formatPercentTick } from '../../shared/format.js';

// A horizontal bar chart of one question's estimated frequencies with 95%
// error bars. Estimates are unbiased, so they (and their intervals) can fall
// outside [0, 1]; the drawing is clipped to [0, 1] and the table next to the
// chart shows the unclipped numbers.

const LABEL_LINE_LENGTH = 22;

const clip = (value) => Math.min(1, Math.max(0, value));

function toPoint(option) {
  // An option not shown (asked openly, fewer than 5 respondents) has no bar at all.
  if (option?.hidden) return { x: null, xMin: null, xMax: null };
  if (option.frequency === null || option.frequency === undefined) return { x: 0, xMin: 0, xMax: 0 };
  return { x: clip(option.frequency), xMin: clip(option.ci_low), xMax: clip(option.ci_high) };
}

// Long option labels wrap onto several lines instead of squeezing the bars.
const wrap = (label) => wrapLabel(label, LABEL_LINE_LENGTH);

export function createFrequencyChart(canvas, allLabels) {
  let current = [];
  // The labels of the bars on the chart (all of them, or those show() chose).
  let labels = allLabels;
  const chart = createErrorBarChart(canvas, {
    label: 'Estimated frequency',
    labels: labels.map(wrap),
    data: labels.map(() => toPoint({ frequency: null })),
    bar: { borderRadius: 3, errorBarWhiskerRatio: 0.35 },
    indexAxis: 'y',
    scales: {
      x: {
        min: 0,
        max: 1,
        ticks: { callback: (value) => formatPercentTick(value), maxTicksLimit: 6, maxRotation: 0 },
        grid: { color: GRID_COLOR },
      },
      y: { grid: { display: false }, ticks: { color: '#1f2937', autoSkip: false } },
    },
    tooltip: {
      title: (items) => labels[items[0].dataIndex],
      label: (item) => describeOption(current[item.dataIndex]),
    },
  });

  return {
    // Updates the bars in place (no re-creation, no animation: no flicker).
    update(options) {
      current = options;
      const points = options.map(toPoint);
      const dataset = chart.data.datasets[0];
      if (sameData(points, dataset.data)) return;
      dataset.data = points;
      chart.update('none');
    },
    // Only some options (the top ones or a search's matches): their labels and results.
    show(shownLabels, options) {
      const points = options.map(toPoint);
      current = options;
      if (sameData(shownLabels, labels) && sameData(points, chart.data.datasets[0].data)) return;
      labels = shownLabels;
      chart.data.labels = shownLabels.map(wrap);
      chart.data.datasets[0].data = points;
      chart.update('none');
    },
    destroy: () => chart.destroy(),
  };
}

function describeOption(option) {
  if (option?.hidden) return `not shown: ${option.hidden}`;
  if (!option || option.frequency === null) return 'no reports yet';
  return `${formatPercent(option.frequency)} (95% CI ${formatInterval(option.ci_low, option.ci_high)})`;
}
