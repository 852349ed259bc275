// The dashboard's part of a categorical question: its results panel.
import { el, setText } from '../../shared/dom.js';
import { scrollBox } from '../../shared/scroll-box.js';
import { createOptionFilter, topOptions } from './option-filter.js';
import { formatEpsilon, formatInteger, formatInterval, formatPercent, mechanismLabel } from '../../shared/format.js';
import { COMMON_FACTS, createResultCard } from '../../shared/result-card.js';
import { isOpen, SMALL_COUNT } from '../../shared/open.js';
import { createFrequencyChart } from './frequency-chart.js';

// What the panel is built from: a panel is rebuilt only when this changes.
export function structure(question) {
  return question.options.map((option) => option.label);
}

// One question of the results document: its facts (n, privacy, mechanism,
// expected precision), the server's warning, the chart and the table that
// carries every number. Built once; update() only changes text and data.
export function createPanel(question, index) {
  const id = question.id;
  // Asked openly: exact shares, intervals for the population only, small counts hidden.
  const open = isOpen(question);
  const tableId = `question-table-${index}`;
  const canvas = el('canvas', {
    role: 'img',
    'aria-label': `Bar chart of the estimated share of respondents per option for “${question.text}”, with 95% error bars. The table below lists the numbers.`,
    'aria-describedby': tableId,
    testid: `chart-${id}`,
  });
  const chartBox = el('div', { class: 'chart-box' }, [canvas]);
  const labels = question.options.map((option) => option.label);
  // Many options: the chart shows the top ones (by estimate) or those a search
  // matches; the table below keeps them all.
  const filter = createOptionFilter(id, labels.length, () => redraw());
  // The chart's height follows the number of bars (CSSOM, allowed by the CSP).
  const setBars = (count) => chartBox.style.setProperty('--bars', String(Math.max(1, count)));
  setBars(Math.min(labels.length, filter.limit));
  const rows = question.options.map((option, optionIndex) => createRow(id, option.label, optionIndex, open));

  const card = createResultCard(question, index, {
    facts: [
      ...COMMON_FACTS,
      open ? null : { key: 'precision', label: 'Expected 95% precision' },
    ],
    // The server's warning (present when n is too small for useful
    // estimates) states the expected precision, which the facts above
    // already show: its presence is used here, its wording is not.
    warning: (result) => sampleSizeWarning(result.n),
    error: false,
    body: [
      filter.element,
      chartBox,
      el('p', { class: 'hint', id: `${tableId}-caption`, text: open ? OPEN_CAPTION : ESTIMATE_CAPTION }),
      scrollBox(el('table', { id: tableId, class: 'results-table', 'aria-describedby': `${tableId}-caption`, testid: `table-${id}` }, [
        el('thead', {}, [el('tr', {}, (open ? ['Option', 'Share', '95% CI', 'Respondents'] : ['Option', 'Estimate', '95% CI', 'Consistent']).map((text) =>
          el('th', { scope: 'col', text })))]),
        el('tbody', {}, rows.map((row) => row.element)),
      ]), { tall: labels.length > filter.limit, testid: `table-box-${id}` }),
    ],
  });
  const { facts } = card;

  const chart = createFrequencyChart(canvas, labels);
  let latest = null;
  function redraw() {
    if (!latest) return;
    const shown = topOptions(labels, latest, filter.query(), filter.limit);
    filter.describe(shown.length, shown.matching);
    setBars(shown.length);
    chart.show(shown.map((index) => labels[index]), shown.map((index) => latest[index]));
  }
  return {
    element: card.element,
    update(result) {
      card.update(result);
      setText(facts.n, formatInteger(result.n));
      setText(facts.epsilon, open ? OPEN_PRIVACY : epsilonText(result.privacy));
      setText(facts.mechanism, open ? OPEN_MECHANISM : mechanismLabel(result.mechanism));
      if (facts.precision) setText(facts.precision, precisionText(result));
      result.options.forEach((option, optionIndex) => rows[optionIndex].update(option));
      latest = result.options;
      if (labels.length > filter.limit || filter.query()) redraw();
      else chart.update(result.options);
    },
    destroy: () => chart.destroy(),
  };
}

const ESTIMATE_CAPTION = 'Estimated share of respondents choosing each option. Estimates are unbiased, so with few reports they can fall outside 0–100% (the chart clips them); the consistent estimates are adjusted to be at least 0 and to add up to 100%, each with its interval (the 95% interval kept within 0–100% and widened to include it).';
const OPEN_CAPTION = `Exact share of respondents choosing each option (asked openly: the answers are not randomised). The 95% interval is for the population the respondents were drawn from (exact binomial, Clopper-Pearson); for these respondents the share is exact. Options chosen by 1 to ${SMALL_COUNT - 1} respondents are not shown (“fewer than ${SMALL_COUNT}”, no bar), nor, when only one is, the next smallest (“not shown”): the total minus the other counts would give it away.`;
export const OPEN_PRIVACY = 'asked openly: not protected';
export const OPEN_MECHANISM = 'none: sent as given, counted exactly';

// `open`: a question asked openly, whose rows say "fewer than 5" for a hidden
// option and give its count of respondents instead of a consistent estimate.
function createRow(questionId, label, optionIndex, open = false) {
  const cells = {
    estimate: el('td', { class: 'number', testid: `estimate-${questionId}-${optionIndex}` }),
    interval: el('td', { class: 'number interval', testid: `ci-${questionId}-${optionIndex}` }),
    consistent: el('td', { class: 'number', testid: `consistent-${questionId}-${optionIndex}` }),
  };
  const element = el('tr', {}, [el('th', { scope: 'row', text: label }), cells.estimate, cells.interval, cells.consistent]);
  return {
    element,
    update(option) {
      if (open) {
        const hidden = Boolean(option.hidden);
        // Hidden for being small, or (the next smallest) so that the small one cannot be worked out.
        const hiddenText = String(option.hidden).startsWith('fewer') ? `fewer than ${SMALL_COUNT}` : 'not shown';
        setText(cells.estimate, hidden ? hiddenText : formatPercent(option.frequency));
        setText(cells.interval, hidden ? '—' : formatInterval(option.ci_low, option.ci_high));
        setText(cells.consistent, hidden ? hiddenText : formatInteger(option.count));
        cells.interval.dataset.low = String(option.ci_low);
        cells.interval.dataset.high = String(option.ci_high);
        cells.estimate.dataset.value = String(option.frequency);
        cells.estimate.dataset.hidden = String(hidden);
        return;
      }
      setText(cells.estimate, formatPercent(option.frequency));
      setText(cells.interval, formatInterval(option.ci_low, option.ci_high));
      setText(cells.consistent, option.consistent_ci_low == null
        ? formatPercent(option.consistent_frequency)
        : `${formatPercent(option.consistent_frequency)} (${formatInterval(option.consistent_ci_low, option.consistent_ci_high)})`);
      // The exact numbers, for machines (tests, screen-scrapers); the text is rounded.
      cells.interval.dataset.low = String(option.ci_low);
      cells.interval.dataset.high = String(option.ci_high);
      cells.estimate.dataset.value = String(option.frequency);
    },
  };
}

function epsilonText(privacy) {
  return formatEpsilon(privacy?.epsilon ?? null);
}

function sampleSizeWarning(n) {
  return n > 0
    ? `Warning: n = ${formatInteger(n)} is too small for useful estimates (see the expected precision above).`
    : 'Warning: no reports yet.';
}

function precisionText(result) {
  const halfWidth = result.expected_ci_half_width;
  if (halfWidth === null || halfWidth === undefined) return 'no reports yet';
  const points = (halfWidth * 100).toFixed(1);
  const needed = result.respondents_for_5_points;
  const forFive = needed ? `; ±5 points needs about ${formatInteger(needed)} respondents` : '';
  return `±${points} points${forFive}`;
}
