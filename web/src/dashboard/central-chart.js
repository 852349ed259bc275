import { BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';
import { BarWithErrorBar, BarWithErrorBarsController } from 'chartjs-chart-error-bars';
import { formatNumber } from '../shared/format.js';

// One release's bars for a question answered in confidence: a noisy count
// per bin (or the consistent counts), with its 95% error bar where the bin
// has an interval of its own. A bin that shares a noise group has none
// (the group's interval is for its mean: the table says so) and is drawn
// lighter. Noisy counts can be negative: the axis shows them as they are.
// Updates in place.

Chart.register(BarWithErrorBarsController, BarWithErrorBar, BarElement, CategoryScale, LinearScale, Tooltip);

export const OWN_INTERVAL_COLOR = '#3b6fd8';
export const GROUPED_COLOR = '#9bb5ec';
const ERROR_BAR_COLOR = '#111827';
const LABEL_LINE_LENGTH = 16;

const sameData = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// Long labels wrap onto several lines under their bar.
function wrapLabel(label) {
  const lines = [];
  let line = '';
  for (const word of String(label).split(/\s+/)) {
    if (line && line.length + 1 + word.length > LABEL_LINE_LENGTH) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines.length <= 1 ? label : lines;
}

// `yTitle`: what the bars count ("noisy count of answers").
export function createCentralChart(canvas, yTitle) {
  let current = [];
  const chart = new Chart(canvas, {
    type: 'barWithErrorBars',
    data: {
      labels: [],
      datasets: [{
        label: yTitle,
        data: [],
        backgroundColor: [],
        borderRadius: 2,
        errorBarColor: ERROR_BAR_COLOR,
        errorBarWhiskerColor: ERROR_BAR_COLOR,
        errorBarLineWidth: 1.5,
        errorBarWhiskerLineWidth: 1.5,
        errorBarWhiskerRatio: 0.3,
        categoryPercentage: 0.9,
        barPercentage: 0.92,
      }],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: {
        x: { grid: { display: false }, ticks: { maxRotation: 50, autoSkip: true } },
        y: {
          beginAtZero: true,
          title: { display: true, text: yTitle },
          ticks: { callback: (value) => formatNumber(value), maxTicksLimit: 6 },
          grid: { color: '#e5e7eb' },
        },
      },
      plugins: {
        legend: { display: false },
        tooltip: { callbacks: { label: (item) => describeBar(current[item.dataIndex]) } },
      },
    },
  });
  return {
    // `bars`: [{label, value, ci_low, ci_high, grouped}] (ci null: no error bar).
    update(bars) {
      current = bars;
      const labels = bars.map((bar) => wrapLabel(bar.label));
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
