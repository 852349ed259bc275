import { GRID_COLOR, createErrorBarChart, replaceBars } from '../../shared/error-bar-chart.js';
import { formatInterval, formatPercent, formatPercentTick } from '../../shared/format.js';

// One histogram's bars (the estimated share of answers per bin, lowest bin
// on the left) with 95% error bars. Estimates are unbiased, so they and their
// intervals can fall outside [0, 1]; the drawing is clipped to [0, 1] and the
// table under the chart shows the unclipped numbers. Updates in place.

const clip = (value) => Math.min(1, Math.max(0, value));

function toPoint(bin) {
  if (bin.frequency === null || bin.frequency === undefined) return { y: 0, yMin: 0, yMax: 0 };
  return { y: clip(bin.frequency), yMin: clip(bin.ci_low), yMax: clip(bin.ci_high) };
}

// `axisTitle`: the bins' axis, with the unit ("bin (USD)").
export function createHistogramChart(canvas, axisTitle) {
  let current = [];
  const chart = createErrorBarChart(canvas, {
    label: 'Estimated share',
    bar: { borderRadius: 2, categoryPercentage: 1, barPercentage: 0.92 },
    scales: {
      x: { title: { display: true, text: axisTitle }, grid: { display: false }, ticks: { maxRotation: 50, autoSkip: true } },
      y: {
        beginAtZero: true,
        suggestedMax: 0.1,
        title: { display: true, text: 'share of answers' },
        ticks: { callback: (value) => formatPercentTick(value), maxTicksLimit: 6 },
        grid: { color: GRID_COLOR },
      },
    },
    tooltip: { label: (item) => describeBin(current[item.dataIndex]) },
  });
  return {
    // `labels`: one per bin; `bins`: the results' bins ({frequency, ci_low, ci_high}).
    update(labels, bins) {
      current = bins;
      replaceBars(chart, labels, bins.map(toPoint));
    },
    destroy: () => chart.destroy(),
  };
}

function describeBin(bin) {
  if (!bin || bin.frequency === null) return 'no reports yet';
  return `${formatPercent(bin.frequency)} (95% CI ${formatInterval(bin.ci_low, bin.ci_high)})`;
}
