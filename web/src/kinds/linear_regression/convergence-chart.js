import { Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import { GRID_COLOR } from '../../shared/error-bar-chart.js';

// A model's coefficients by round, in the variables' units: one line per
// coefficient (the intercept first), round 0 being the starting model; each
// point the average of the model's chains after that round. The
// table next to the chart lists the final numbers. Updates in place.

Chart.register(LineController, LineElement, PointElement, LinearScale, Legend, Tooltip);

// Distinct colours, then dashes, so that many coefficients stay apart.
const COLORS = ['#3b6fd8', '#d9480f', '#2b8a3e', '#862e9c', '#c2255c', '#0b7285', '#5c940d', '#495057'];
const DASHES = [[], [6, 4], [2, 3], [10, 3, 2, 3]];

const COEFFICIENT = new Intl.NumberFormat('en', { maximumSignificantDigits: 4 });
const sameData = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// `names`: the coefficients' names (["intercept", ...features]).
export function createConvergenceChart(canvas, names) {
  const chart = new Chart(canvas, {
    type: 'line',
    data: {
      datasets: names.map((name, index) => ({
        label: name,
        data: [],
        borderColor: COLORS[index % COLORS.length],
        backgroundColor: COLORS[index % COLORS.length],
        borderDash: DASHES[Math.floor(index / COLORS.length) % DASHES.length],
        borderWidth: 2,
        pointRadius: 2.5,
        tension: 0,
        fill: false,
      })),
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      interaction: { mode: 'index', intersect: false },
      scales: {
        x: {
          type: 'linear',
          min: 0,
          suggestedMax: 1,
          title: { display: true, text: 'round' },
          ticks: { precision: 0 },
          grid: { color: GRID_COLOR },
        },
        y: { title: { display: true, text: 'coefficient (variables’ units)' }, grid: { color: GRID_COLOR } },
      },
      plugins: {
        legend: { display: true, position: 'bottom', labels: { boxWidth: 18, boxHeight: 2 } },
        tooltip: {
          callbacks: {
            title: (items) => `After round ${items[0].parsed.x}`,
            label: (item) => `${item.dataset.label}: ${COEFFICIENT.format(item.parsed.y)}`,
          },
        },
      },
    },
  });
  return {
    // `rounds`: the results' rounds ({round, average_raw}).
    update(rounds) {
      const series = names.map((_, index) => rounds.map((round) => ({ x: round.round, y: round.average_raw[index] })));
      if (sameData(series, chart.data.datasets.map((dataset) => dataset.data))) return;
      series.forEach((data, index) => { chart.data.datasets[index].data = data; });
      chart.update('none');
    },
    destroy: () => chart.destroy(),
  };
}
