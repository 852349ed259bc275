import { BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';
import { BarWithErrorBar, BarWithErrorBarsController } from 'chartjs-chart-error-bars';
import { formatInterval, formatPercent, formatPercentTick } from '../../shared/format.js';

// One histogram's bars (the estimated share of answers per bin, lowest bin
// on the left) with 95% error bars. Estimates are unbiased, so they and their
// intervals can fall outside [0, 1]; the drawing is clipped to [0, 1] and the
// table under the chart shows the unclipped numbers. Updates in place.

Chart.register(BarWithErrorBarsController, BarWithErrorBar, BarElement, CategoryScale, LinearScale, Tooltip);

const BAR_COLOR = '#3b6fd8';
const ERROR_BAR_COLOR = '#111827';

const clip = (value) => Math.min(1, Math.max(0, value));
const sameData = (a, b) => JSON.stringify(a) === JSON.stringify(b);

function toPoint(bin) {
  if (bin.frequency === null || bin.frequency === undefined) return { y: 0, yMin: 0, yMax: 0 };
  return { y: clip(bin.frequency), yMin: clip(bin.ci_low), yMax: clip(bin.ci_high) };
}

// `axisTitle`: the bins' axis, with the unit ("bin (USD)").
export function createHistogramChart(canvas, axisTitle) {
  let current = [];
  const chart = new Chart(canvas, {
    type: 'barWithErrorBars',
    data: {
      labels: [],
      datasets: [{
        label: 'Estimated share',
        data: [],
        backgroundColor: BAR_COLOR,
        borderRadius: 2,
        errorBarColor: ERROR_BAR_COLOR,
        errorBarWhiskerColor: ERROR_BAR_COLOR,
        errorBarLineWidth: 1.5,
        errorBarWhiskerLineWidth: 1.5,
        errorBarWhiskerRatio: 0.3,
        categoryPercentage: 1,
        barPercentage: 0.92,
      }],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: {
        x: { title: { display: true, text: axisTitle }, grid: { display: false }, ticks: { maxRotation: 50, autoSkip: true } },
        y: {
          beginAtZero: true,
          suggestedMax: 0.1,
          title: { display: true, text: 'share of answers' },
          ticks: { callback: (value) => formatPercentTick(value), maxTicksLimit: 6 },
          grid: { color: '#e5e7eb' },
        },
      },
      plugins: {
        legend: { display: false },
        tooltip: { callbacks: { label: (item) => describeBin(current[item.dataIndex]) } },
      },
    },
  });
  return {
    // `labels`: one per bin; `bins`: the results' bins ({frequency, ci_low, ci_high}).
    update(labels, bins) {
      current = bins;
      const data = bins.map(toPoint);
      if (sameData(labels, chart.data.labels) && sameData(data, chart.data.datasets[0].data)) return;
      chart.data.labels = labels;
      chart.data.datasets[0].data = data;
      chart.update('none');
    },
    destroy: () => chart.destroy(),
  };
}

function describeBin(bin) {
  if (!bin || bin.frequency === null) return 'no reports yet';
  return `${formatPercent(bin.frequency)} (95% CI ${formatInterval(bin.ci_low, bin.ci_high)})`;
}
