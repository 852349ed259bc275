import { BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';
import { BarWithErrorBar, BarWithErrorBarsController } from 'chartjs-chart-error-bars';
import { formatInterval, formatPercent, formatPercentTick } from '../../shared/format.js';

// A horizontal bar chart of one question's estimated frequencies with 95%
// error bars. Estimates are unbiased, so they (and their intervals) can fall
// outside [0, 1]; the drawing is clipped to [0, 1] and the table next to the
// chart shows the unclipped numbers.

Chart.register(BarWithErrorBarsController, BarWithErrorBar, BarElement, CategoryScale, LinearScale, Tooltip);
Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
Chart.defaults.font.size = 13;
Chart.defaults.color = '#374151';

const BAR_COLOR = '#3b6fd8';
const ERROR_BAR_COLOR = '#111827';
const LABEL_LINE_LENGTH = 22;

const clip = (value) => Math.min(1, Math.max(0, value));

function toPoint(option) {
  if (option.frequency === null || option.frequency === undefined) return { x: 0, xMin: 0, xMax: 0 };
  return { x: clip(option.frequency), xMin: clip(option.ci_low), xMax: clip(option.ci_high) };
}

// Long option labels wrap onto several lines instead of squeezing the bars.
export function wrapLabel(label, lineLength = LABEL_LINE_LENGTH) {
  const lines = [];
  let line = '';
  for (const word of label.split(/\s+/)) {
    if (line && line.length + 1 + word.length > lineLength) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines.length <= 1 ? label : lines;
}

export function createFrequencyChart(canvas, allLabels) {
  let current = [];
  // The labels of the bars on the chart (all of them, or those show() chose).
  let labels = allLabels;
  const chart = new Chart(canvas, {
    type: 'barWithErrorBars',
    data: {
      labels: labels.map((label) => wrapLabel(label)),
      datasets: [{
        label: 'Estimated frequency',
        data: labels.map(() => toPoint({ frequency: null })),
        backgroundColor: BAR_COLOR,
        borderRadius: 3,
        errorBarColor: ERROR_BAR_COLOR,
        errorBarWhiskerColor: ERROR_BAR_COLOR,
        errorBarLineWidth: 1.5,
        errorBarWhiskerLineWidth: 1.5,
        errorBarWhiskerRatio: 0.35,
      }],
    },
    options: {
      indexAxis: 'y',
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales: {
        x: {
          min: 0,
          max: 1,
          ticks: { callback: (value) => formatPercentTick(value), maxTicksLimit: 6, maxRotation: 0 },
          grid: { color: '#e5e7eb' },
        },
        y: { grid: { display: false }, ticks: { color: '#1f2937', autoSkip: false } },
      },
      plugins: {
        legend: { display: false },
        tooltip: {
          callbacks: {
            title: (items) => labels[items[0].dataIndex],
            label: (item) => describeOption(current[item.dataIndex]),
          },
        },
      },
    },
  });

  return {
    // Updates the bars in place (no re-creation, no animation: no flicker).
    update(options) {
      current = options;
      const points = options.map(toPoint);
      const dataset = chart.data.datasets[0];
      if (JSON.stringify(points) === JSON.stringify(dataset.data)) return;
      dataset.data = points;
      chart.update('none');
    },
    // Only some options (the top ones or a search's matches): their labels and results.
    show(shownLabels, options) {
      const points = options.map(toPoint);
      const sameLabels = JSON.stringify(shownLabels) === JSON.stringify(labels);
      current = options;
      if (sameLabels && JSON.stringify(points) === JSON.stringify(chart.data.datasets[0].data)) return;
      labels = shownLabels;
      chart.data.labels = shownLabels.map((label) => wrapLabel(label));
      chart.data.datasets[0].data = points;
      chart.update('none');
    },
    destroy: () => chart.destroy(),
  };
}

function describeOption(option) {
  if (!option || option.frequency === null) return 'no reports yet';
  return `${formatPercent(option.frequency)} (95% CI ${formatInterval(option.ci_low, option.ci_high)})`;
}
