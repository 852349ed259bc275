import { CategoryScale, Chart, Filler, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import { BAR_COLOR, GRID_COLOR, createErrorBarChart, replaceBars, sameData } from '../../shared/error-bar-chart.js';
import { formatInterval, formatNumber, formatPercent, formatPercentTick, withUnit } from '../../shared/format.js';

// The two charts of a numeric question: the reconstructed density as a line
// with its 95% bootstrap band (the area between "low" and "high" filled), and
// the histogram (share per bin) with 95% error bars. Both update in place.

Chart.register(LineController, LineElement, PointElement, Filler, LinearScale, CategoryScale, Tooltip);

const LINE_COLOR = BAR_COLOR;
const BAND_COLOR = 'rgba(59, 111, 216, 0.18)';

function densitySeries(density) {
  if (!density) return [[], [], []];
  const series = (key) => density.points.map((x, index) => ({ x, y: density[key][index] }));
  return [series('low'), series('high'), series('value')];
}

export function createDensityChart(canvas, range, unit) {
  const bandLine = { borderWidth: 0, pointRadius: 0, backgroundColor: BAND_COLOR };
  const chart = new Chart(canvas, {
    type: 'line',
    data: {
      datasets: [
        { label: '95% band, low', data: [], ...bandLine, fill: false },
        { label: '95% band', data: [], ...bandLine, fill: '-1' },  // filled down to the low line
        { label: 'Estimated density', data: [], borderColor: LINE_COLOR, borderWidth: 2, pointRadius: 0, fill: false },
      ],
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      parsing: true,
      interaction: { mode: 'index', intersect: false },
      scales: {
        x: { type: 'linear', min: range[0], max: range[1], title: { display: true, text: withUnit('answer', unit ? `(${unit})` : '') }, grid: { color: GRID_COLOR } },
        y: { beginAtZero: true, title: { display: true, text: 'density' }, grid: { color: GRID_COLOR } },
      },
      plugins: {
        legend: { display: false },
        tooltip: {
          filter: (item) => item.datasetIndex === 2,
          callbacks: {
            title: (items) => withUnit(formatNumber(items[0].parsed.x), unit),
            label: (item) => `density ${formatNumber(item.parsed.y)}`,
          },
        },
      },
    },
  });
  return {
    update(density) {
      const series = densitySeries(density);
      if (sameData(series, chart.data.datasets.map((dataset) => dataset.data))) return;
      series.forEach((data, index) => { chart.data.datasets[index].data = data; });
      chart.update('none');
    },
    destroy: () => chart.destroy(),
  };
}

function binLabel(edges, index) {
  return `${formatNumber(edges[index])}–${formatNumber(edges[index + 1])}`;
}

export function createHistogramChart(canvas, unit) {
  let current = null;
  const chart = createErrorBarChart(canvas, {
    label: 'Share of respondents',
    bar: { categoryPercentage: 1, barPercentage: 0.94 },
    scales: {
      x: { title: { display: true, text: unit ? `bin (${unit})` : 'bin' }, grid: { display: false }, ticks: { maxRotation: 50, autoSkip: true } },
      y: { beginAtZero: true, title: { display: true, text: 'share of answers' }, ticks: { callback: (value) => formatPercentTick(value) }, grid: { color: GRID_COLOR } },
    },
    tooltip: {
      label: (item) => {
        const index = item.dataIndex;
        return `${formatPercent(current.value[index])} (95% band ${formatInterval(current.low[index], current.high[index])})`;
      },
    },
  });
  return {
    update(histogram) {
      current = histogram;
      const labels = histogram ? histogram.value.map((_, index) => binLabel(histogram.edges, index)) : [];
      const data = histogram ? histogram.value.map((y, index) => ({ y, yMin: histogram.low[index], yMax: histogram.high[index] })) : [];
      replaceBars(chart, labels, data);
    },
    destroy: () => chart.destroy(),
  };
}

// A levels question's estimated share of answers per privacy level, with 95%
// error bars; `labels` name the levels ("Level 1 (ε 3)"), fixed per survey.
export function createLevelSharesChart(canvas, labels) {
  let current = [];
  const chart = createErrorBarChart(canvas, {
    label: 'Share of answers',
    labels,
    bar: { categoryPercentage: 0.8, barPercentage: 0.9 },
    scales: {
      x: { title: { display: true, text: 'privacy level' }, grid: { display: false } },
      y: { beginAtZero: true, suggestedMax: 1, title: { display: true, text: 'share of answers' }, ticks: { callback: (value) => formatPercentTick(value) }, grid: { color: GRID_COLOR } },
    },
    tooltip: {
      label: (item) => {
        const level = current[item.dataIndex];
        return `${formatPercent(level.share)} (95% interval ${formatInterval(level.ci_low, level.ci_high)})`;
      },
    },
  });
  return {
    // `levels`: mechanism_estimates.levels, or [] for none yet.
    update(levels) {
      current = levels;
      replaceBars(chart, labels, levels.map((level) => ({ y: level.share, yMin: level.ci_low, yMax: level.ci_high })));
    },
    destroy: () => chart.destroy(),
  };
}
