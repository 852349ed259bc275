import { Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import { GRID_COLOR } from '../../shared/error-bar-chart.js';

// A model's coefficients by round, in the variables' units: one small chart
// per coefficient (the intercept first), round 0 being the starting model; each
// point the average of the model's chains after that round. The
// table next to the chart lists the final numbers. Updates in place.

Chart.register(LineController, LineElement, PointElement, LinearScale, Legend, Tooltip);

// Distinct colours, then dashes, so that many coefficients stay apart.
const COLORS = ['#3b6fd8', '#d9480f', '#2b8a3e', '#862e9c', '#c2255c', '#0b7285', '#5c940d', '#495057'];
const DASHES = [[], [6, 4], [2, 3], [10, 3, 2, 3]];

const COEFFICIENT = new Intl.NumberFormat('en', { maximumSignificantDigits: 4 });
const sameData = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// `names`: the coefficients' names (["intercept", ...features]). One small
// chart per coefficient, each on its own vertical axis: the intercept (in the
// target's units) and the slopes (target units per feature unit) differ by
// orders of magnitude, and on one axis the slopes looked flat.
// `canvases`: one canvas per coefficient, in the same order.
export function createConvergenceCharts(canvases, names) {
  const charts = names.map((name, index) => createOneChart(canvases[index], name, index));
  return {
    // `rounds`: the results' rounds ({round, average_raw}).
    update(rounds) {
      charts.forEach((chart, index) => {
        const data = rounds.map((round) => ({ x: round.round, y: round.average_raw[index] }));
        if (sameData(data, chart.data.datasets[0].data)) return;
        chart.data.datasets[0].data = data;
        chart.update('none');
      });
    },
    destroy: () => charts.forEach((chart) => chart.destroy()),
  };
}

function createOneChart(canvas, name, index) {
  const color = COLORS[index % COLORS.length];
  return new Chart(canvas, {
    type: 'line',
    data: {
      datasets: [{
        label: name,
        data: [],
        borderColor: color,
        backgroundColor: color,
        borderDash: DASHES[Math.floor(index / COLORS.length) % DASHES.length],
        borderWidth: 2,
        pointRadius: 2.5,
        tension: 0,
        fill: false,
      }],
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
        y: { title: { display: true, text: name }, grid: { color: GRID_COLOR } },
      },
      plugins: {
        legend: { display: false },
        tooltip: {
          callbacks: {
            title: (items) => `After round ${items[0].parsed.x}`,
            label: (item) => `${item.dataset.label}: ${COEFFICIENT.format(item.parsed.y)}`,
          },
        },
      },
    },
  });
}
