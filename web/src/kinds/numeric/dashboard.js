// The dashboard's part of a numeric question: its results panel, and the
// estimation controls shared by the survey's numeric questions.
import { el, setText } from '../../shared/dom.js';
import { scrollBox } from '../../shared/scroll-box.js';
import { formatEpsilon, formatInteger, formatNumber, mechanismLabel, withUnit } from '../../shared/format.js';
import { COMMON_FACTS, createResultCard } from '../../shared/result-card.js';
import { createDensityChart, createHistogramChart } from './charts.js';
import { levelsDetails } from './levels.js';
import { createLevelsSection } from './levels-section.js';
import { isOpen } from '../../shared/open.js';
import { createOpenPanel } from './open-panel.js';

export { createEstimateControls as createControls } from './estimate-controls.js';

// One numeric question of the results document: its facts (n, privacy,
// mechanism, estimator, whether it converged), the server's warning, the density with its 95%
// band, the histogram with error bars and a table of summary statistics with
// 95% intervals; for privacy levels also their own section (levels-section.js).
// Built once; update() only changes text and chart data.

const STATISTICS = [
  ['mean', 'Mean', true],
  ['std_dev', 'Standard deviation', true],
  ['median', 'Median', true],
  ['lower_quartile', 'Lower quartile', true],
  ['upper_quartile', 'Upper quartile', true],
  ['skewness', 'Skewness', false],
  ['kurtosis', 'Kurtosis', false],
];

const ESTIMATOR_NAMES = {
  pml: 'penalised maximum likelihood (PML)',
  ems: 'EM with smoothing (EMS)',
  em: 'EM',
  kde_sqp: 'KDE + SQP (paper)',
};

// Where a λ other than the sqrt(N) rule's came from.
const PENALTY_ORIGINS = {
  marginal_likelihood: ' (lowered by the marginal likelihood)',
  analyst: ' (yours)',
};

// PML's curvature penalty is shown with its name, so that an analyst who
// changes it (?curvature_penalty=) sees which smoothing a chart reflects.
function estimatorLabel(result) {
  const name = ESTIMATOR_NAMES[result.estimator] ?? result.estimator ?? '—';
  if (typeof result.curvature_penalty !== 'number') return name;
  const origin = PENALTY_ORIGINS[result.curvature_penalty_rule] ?? '';
  return `${name}, curvature penalty λ = ${result.curvature_penalty.toPrecision(2)}${origin}`;
}

// Whether the estimator converged: an estimate cut off at its iteration cap
// also gets a warning from the server; this line says it either way.
function fitLabel(fit) {
  if (!fit) return '—';
  if (fit.converged) return `converged (${formatInteger(fit.steps)} ${fit.step_unit})`;
  return `not converged: ${fit.stopped_because}`;
}

// What the panel is built from: a panel is rebuilt only when this changes
// (its range, unit and text are fixed for a survey version).
export function structure() {
  return null;
}

export function createPanel(question, index) {
  // Asked openly: exact statistics and a histogram, nothing estimated (open-panel.js).
  if (isOpen(question)) return createOpenPanel(question, index);
  const id = question.id;
  const unit = question.unit ?? '';
  // An entry whose estimate failed carries only id, type and error.
  const text = question.text ?? question.id;
  const range = question.range ?? [undefined, undefined];
  const tableId = `question-table-${index}`;
  const unbiased = el('p', { testid: `unbiased-mean-${id}`, hidden: true });
  // Two means are shown when the mechanism gives a direct one: say which to use.
  const meansAdvice = el('p', { class: 'hint means-advice', testid: `means-advice-${id}`, hidden: true,
    text: 'Which mean to use: the unbiased mean above. It is computed directly from the reports, so it has no bias, and its 95% interval comes from the reports’ own spread. The mean in the table below is that of the estimated distribution: it depends on the estimator and its smoothing, so it can be pulled away from the true mean; use it with the distribution’s other statistics.' });
  const histogramCaption = el('p', { class: 'hint chart-caption', testid: `histogram-caption-${id}` });
  const densityCaption = el('p', { class: 'hint chart-caption', testid: `density-caption-${id}` });
  const intervalMethod = el('p', { class: 'hint', testid: `interval-method-${id}` });
  const densityCanvas = el('canvas', {
    role: 'img', testid: `density-${id}`, 'aria-describedby': tableId,
    'aria-label': `Line chart of the estimated distribution of answers to “${text}” with its 95% band. The table below lists the summary statistics.`,
  });
  const histogramCanvas = el('canvas', {
    role: 'img', testid: `histogram-${id}`, 'aria-describedby': tableId,
    'aria-label': `Bar chart of the estimated share of answers per bin for “${text}”, with 95% error bars.`,
  });
  const rows = STATISTICS.map(([key, label, withUnitText]) => createStatisticRow(id, key, label, withUnitText ? unit : ''));
  // The mechanism is fixed for a survey version, so the section is made once (or never).
  const details = levelsDetails(question);
  const levels = details ? createLevelsSection(question, details) : null;

  const card = createResultCard(question, index, {
    facts: [
      ...COMMON_FACTS,
      { key: 'estimator', label: 'Estimator' },
      { key: 'fit', label: 'Fit' },
    ],
    body: [
      levels?.element,
      el('h3', { class: 'chart-title', text: 'Estimated distribution' }),
      el('div', { class: 'chart-box chart-box-numeric' }, [densityCanvas]),
      densityCaption,
      el('h3', { class: 'chart-title', text: 'Histogram' }),
      el('div', { class: 'chart-box chart-box-numeric' }, [histogramCanvas]),
      histogramCaption,
      unbiased,
      meansAdvice,
      scrollBox(el('table', { id: tableId, class: 'results-table', testid: `table-${id}` }, [
        el('caption', { text: 'Summary statistics of the true answers, estimated from the reports, with 95% bootstrap intervals.' }),
        el('thead', {}, [el('tr', {}, ['Statistic', 'Estimate', '95% interval'].map((text) => el('th', { scope: 'col', text })))]),
        el('tbody', {}, rows.flatMap((row) => row.elements)),
      ])),
      intervalMethod,
    ],
  });
  const { facts } = card;

  // Keeps the facts (they do not depend on the estimate) and clears the rest.
  const showFailure = () => {
    card.warning.hidden = true;
    density.update(null);
    histogram.update(null);
    updateUnbiasedMean(unbiased, null, unit);
    meansAdvice.hidden = true;
    rows.forEach((row) => row.update(null));
    setText(intervalMethod, '');
    levels?.clear();
  };
  const density = createDensityChart(densityCanvas, range, unit);
  const histogram = createHistogramChart(histogramCanvas, unit);
  return {
    element: card.element,
    update(result) {
      if (!card.update(result)) {
        showFailure();
        return;
      }
      setText(facts.n, formatInteger(result.n));
      setText(facts.epsilon, formatEpsilon(result.privacy?.epsilon ?? null));
      setText(facts.mechanism, result.mechanism ? mechanismLabel(result.mechanism) : '—');
      setText(facts.estimator, estimatorLabel(result));
      setText(facts.fit, fitLabel(result.fit));
      density.update(result.density ?? null);
      setText(densityCaption, densityCaptionText(result.density ?? null, unit));
      histogram.update(result.histogram ?? null);
      const caption = result.histogram ? `Estimated share of answers per bin of width ${withUnit(formatNumber(result.histogram.bin_width), unit)}, with 95% error bars (bootstrap, widened for how far the estimator spreads a single value at this number of reports).` : (result.warning ? 'No histogram: see the warning above.' : 'No histogram yet.');
      setText(histogramCaption, caption);
      updateUnbiasedMean(unbiased, result.unbiased_mean, unit);
      meansAdvice.hidden = !result.unbiased_mean || !result.statistics?.mean;
      rows.forEach((row) => row.update(result.statistics?.[row.key] ?? null));
      setText(intervalMethod, intervalMethodText(result.bootstrap, result.step ?? null, unit));
      levels?.update(result.mechanism_estimates ?? null);
    },
    destroy() {
      density.destroy();
      histogram.destroy();
      levels?.destroy();
    },
  };
}

const INTERVAL_METHODS = {
  bias_aware: 'bias-aware parametric bootstrap for the population (the estimate ± 1.96 × the replicates\' root-mean-square error, their bias included; replicates drawn from a less smoothed fit, whose value the interval also holds; quantiles widened by half an estimation cell, and quartiles towards the median by the estimator\'s blur at this n; mean, standard deviation, skewness and kurtosis also hold intervals from the reports\' own moments, which assume nothing about the answers\' shape)',
  basic: 'basic parametric bootstrap',
  percentile: 'percentile parametric bootstrap',
};

// The density band is for the density averaged over a window (the estimator
// resolves nothing narrower), and says so.
function densityCaptionText(density, unit) {
  if (!density) return 'No density: see the warning above.';
  const window = withUnit(formatNumber(density.window), unit);
  const bumps = density.note ? ` Note: ${density.note}.` : '';
  return `The line is the reconstructed density of the true answers. The shaded band is a 95% band for the share of answers per unit within ${window} either side of each point: at this number of reports the estimator cannot resolve detail finer than that, so a narrow peak may be higher than the line.${bumps}`;
}

// Which method made the intervals, and where they are known to fall short.
function intervalMethodText(bootstrap, step, unit) {
  if (!bootstrap) return '';
  const method = INTERVAL_METHODS[bootstrap.interval] ?? 'parametric bootstrap';
  const steps = step === null ? '' : ` Answers come in steps of ${withUnit(formatNumber(step), unit)}: the median and quartiles are given on those steps, their intervals rounded outwards to them, and the CDF and histogram bands widened by one step.`;
  return `Intervals: ${method}, ${bootstrap.replicates} replicates.${steps} A statistic marked unreliable has an interval that may still miss; skewness and kurtosis covered less often than 95% in the coverage benchmark.`;
}

// Mean mechanisms (Laplace, Duchi, Piecewise, Hybrid) also give an unbiased mean.
function updateUnbiasedMean(node, mean, unit) {
  node.hidden = !mean;
  if (!mean) return;
  setText(node, `Unbiased mean: ${withUnit(formatNumber(mean.value), unit)} (95% CI ${formatNumber(mean.ci_low)} to ${withUnit(formatNumber(mean.ci_high), unit)}, standard error ${formatNumber(mean.std_error)}).`);
  node.dataset.low = String(mean.ci_low);
  node.dataset.high = String(mean.ci_high);
}

function createStatisticRow(questionId, key, label, unit) {
  const estimate = el('td', { class: 'number', testid: `stat-${questionId}-${key}` });
  const interval = el('td', { class: 'number interval', testid: `stat-ci-${questionId}-${key}` });
  // Why this statistic should not be relied on (the server's note), on a row of its own under the statistic.
  const note = el('td', { colspan: '3', class: 'hint statistic-note', testid: `stat-note-${questionId}-${key}` });
  const noteRow = el('tr', { class: 'statistic-note-row', hidden: true }, [note]);
  return {
    key,
    elements: [el('tr', {}, [el('th', { scope: 'row', text: unit ? `${label} (${unit})` : label }), estimate, interval]), noteRow],
    update(statistic) {
      const known = typeof statistic?.value === 'number';
      setText(estimate, known ? formatNumber(statistic.value) : '—');
      setText(interval, known ? `${formatNumber(statistic.low)}\u00a0to ${formatNumber(statistic.high)}` : '—');
      noteRow.hidden = !statistic?.note;
      setText(note, statistic?.note ? `${known ? 'Unreliable' : 'Not shown'}: ${statistic.note}.` : '');
      // The exact numbers, for machines (tests, screen-scrapers); the text is rounded.
      estimate.dataset.value = String(statistic?.value ?? '');
      interval.dataset.low = String(statistic?.low ?? '');
      interval.dataset.high = String(statistic?.high ?? '');
    },
  };
}
