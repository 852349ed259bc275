// Bar charts with 95% error bars (Chart.js and chartjs-chart-error-bars),
// drawn alike on every panel: the bars' and error bars' colours and widths,
// no legend, no animation (updates in place, no flicker), the page's font.
// Each chart gives what is its own: its dataset's name and data, its axes and
// its tooltip.
import { BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';
import { BarWithErrorBar, BarWithErrorBarsController } from 'chartjs-chart-error-bars';

Chart.register(BarWithErrorBarsController, BarWithErrorBar, BarElement, CategoryScale, LinearScale, Tooltip);
Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
Chart.defaults.font.size = 13;
Chart.defaults.color = '#374151';

export const BAR_COLOR = '#3b6fd8';
export const GRID_COLOR = '#e5e7eb';
const ERROR_BAR_COLOR = '#111827';

export const sameData = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// Long labels wrap onto several lines instead of squeezing the bars.
export function wrapLabel(label, lineLength) {
  const lines = [];
  let line = '';
  for (const word of String(label).split(/\s+/)) {
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

// `label`: the dataset's name; `bar`: its own bar options (colour, widths,
// whisker ratio); `scales`; `tooltip`: Chart.js tooltip callbacks;
// `indexAxis` 'y' for horizontal bars.
export function createErrorBarChart(canvas, { label, labels = [], data = [], bar = {}, scales, tooltip, indexAxis = 'x' }) {
  return new Chart(canvas, {
    type: 'barWithErrorBars',
    data: {
      labels,
      datasets: [{
        label,
        data,
        backgroundColor: BAR_COLOR,
        errorBarColor: ERROR_BAR_COLOR,
        errorBarWhiskerColor: ERROR_BAR_COLOR,
        errorBarLineWidth: 1.5,
        errorBarWhiskerLineWidth: 1.5,
        errorBarWhiskerRatio: 0.3,
        ...bar,
      }],
    },
    options: {
      indexAxis,
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      scales,
      plugins: { legend: { display: false }, tooltip: { callbacks: tooltip } },
    },
  });
}

// Puts new labels and points on the chart's one dataset, redrawing only when they changed.
export function replaceBars(chart, labels, data) {
  const dataset = chart.data.datasets[0];
  if (sameData(labels, chart.data.labels) && sameData(data, dataset.data)) return;
  chart.data.labels = labels;
  dataset.data = data;
  chart.update('none');
}
