// The dashboard's part of a block question: its results panel (each
// attribute's estimated distribution with 95% error bars, the privacy a
// respondent has, and a cross-tabulation of a few attributes), and the
// controls that choose the cross-tabulation.
import { el, setText } from '../../shared/dom.js';
import { scrollBox } from '../../shared/scroll-box.js';
import { formatEpsilon, formatInteger, formatInterval, formatNumber, formatPercent } from '../../shared/format.js';
import { createResultCard } from '../../shared/result-card.js';
import { createFrequencyChart } from '../categorical/frequency-chart.js';
import { createCrossTab } from './crosstab-table.js';
import { MECHANISM_LABEL } from './shared.js';

export { createCrossTabControls as createControls } from './crosstab-controls.js';

// What the panel is built from: a panel is rebuilt only when this changes
// (the cross-tabulation follows the analyst's choice in place).
export function structure(question) {
  return (question.attributes ?? []).map((attribute) => [attribute.id, attribute.options.map((option) => option.label)]);
}

// One block question of the results document. Built once; update() only
// changes text and data.
export function createPanel(question, index) {
  const id = question.id;
  const attributes = (question.attributes ?? []).map((attribute) => ({
    id: attribute.id, text: attribute.text, options: attribute.options.map((option) => option.label),
  }));
  const privacyNote = el('p', { class: 'hint', testid: `privacy-note-${id}` });
  const sections = attributes.map((attribute) => createAttributeSection(id, attribute));
  const crosstab = createCrossTab(id, attributes);
  const card = createResultCard(question, index, {
    variant: 'question-result-wide',
    facts: [
      { key: 'n', label: 'Respondents (n)' },
      { key: 'epsilon', label: 'Privacy, all parts answered' },
      { key: 'perAttribute', label: 'Per answered part', testid: 'epsilon-per-attribute' },
      { key: 'shares', label: 'One part’s share', testid: 'share-range' },
      { key: 'mechanism', label: 'Mechanism' },
      { key: 'mode', label: 'Estimator' },
    ],
    afterFacts: [privacyNote],
    body: [
      el('p', { class: 'hint', text: 'Each part’s distribution among the respondents who answered it: the estimated share per option with its 95% interval. Estimates are unbiased, so with few reports they can fall outside 0–100% (the charts clip them); the consistent estimates are adjusted to be at least 0 and to add up to 100%.' }),
      el('div', { class: 'consumer-grid block-attributes' }, sections.map((section) => section.element)),
      crosstab.element,
    ],
  });

  return {
    element: card.element,
    update(result) {
      if (!card.update(result)) return;
      showFacts(card.facts, privacyNote, result);
      result.attributes.forEach((attribute, attributeIndex) => sections[attributeIndex]?.update(attribute));
      crosstab.update(result.crosstab);
    },
    destroy() {
      sections.forEach((section) => section.destroy());
    },
  };
}

// n, the privacy (total and per attribute), the mechanism, the estimator,
// and the core's note on what the guarantee is.
function showFacts(cells, privacyNote, result) {
  const privacy = result.privacy ?? {};
  setText(cells.n, formatInteger(result.n));
  setText(cells.epsilon, formatEpsilon(privacy.epsilon ?? null));
  setText(cells.perAttribute, formatEpsilon(privacy.epsilon_per_attribute ?? null));
  const [low, high] = privacy.share_range ?? [null, null];
  setText(cells.shares, low === null ? '—' : `ε from ${formatNumber(low)} to ${formatNumber(high)}`);
  setText(cells.mechanism, MECHANISM_LABEL);
  setText(cells.mode, result.mode === 'paper' ? 'the paper’s' : 'calibrated');
  setText(privacyNote, privacy.note ? `Privacy: ${privacy.note}` : '');
}

// One attribute: its n and ε, its warning, the chart and the table that
// carries every number.
function createAttributeSection(questionId, attribute) {
  const key = `${questionId}-${attribute.id}`;
  const tableId = `block-table-${key}`;
  const facts = el('p', { class: 'hint', testid: `attribute-facts-${key}` });
  const warning = el('p', { class: 'notice notice-warning', testid: `attribute-warning-${key}`, hidden: true });
  const canvas = el('canvas', {
    role: 'img',
    'aria-label': `Bar chart of the estimated share of respondents per option for “${attribute.text}”, with 95% error bars. The table below lists the numbers.`,
    'aria-describedby': tableId,
    testid: `chart-${key}`,
  });
  const chartBox = el('div', { class: 'chart-box' }, [canvas]);
  chartBox.style.setProperty('--bars', String(attribute.options.length));
  const rows = attribute.options.map((label, optionIndex) => createRow(key, label, optionIndex));
  const element = el('section', { class: 'consumer-result block-attribute-result', 'aria-label': attribute.text, testid: `attribute-${key}` }, [
    el('h3', { class: 'chart-title', text: attribute.text }),
    facts,
    warning,
    chartBox,
    scrollBox(el('table', { id: tableId, class: 'results-table', testid: `table-${key}` }, [
      el('thead', {}, [el('tr', {}, ['Option', 'Estimate', '95% CI', 'Consistent'].map((text) => el('th', { scope: 'col', text })))]),
      el('tbody', {}, rows.map((row) => row.element)),
    ]), { label: `Estimated share per option for “${attribute.text}”` }),
  ]);
  const chart = createFrequencyChart(canvas, attribute.options);
  return {
    element,
    update(result) {
      setText(facts, attributeFacts(result));
      warning.hidden = !result.warning;
      setText(warning, result.warning ? `Warning: ${result.warning}` : '');
      result.options.forEach((option, optionIndex) => rows[optionIndex]?.update(option));
      chart.update(result.options);
    },
    destroy: () => chart.destroy(),
  };
}

// "n = 1,535 · effective ε ≈ 1.65 (average q = 0.162)": the shares differ
// between respondents; the average q says what this attribute's reports hold.
function attributeFacts(result) {
  const n = `Answered by ${formatInteger(result.n)}`;
  if (result.effective_epsilon === null || result.effective_epsilon === undefined) return `${n}.`;
  return `${n} · effective ε ≈ ${formatNumber(result.effective_epsilon)} (the respondents’ average q = ${formatNumber(result.average_q)}; each chose their own share).`;
}

function createRow(key, label, optionIndex) {
  const cells = {
    estimate: el('td', { class: 'number', testid: `estimate-${key}-${optionIndex}` }),
    interval: el('td', { class: 'number interval', testid: `ci-${key}-${optionIndex}` }),
    consistent: el('td', { class: 'number', testid: `consistent-${key}-${optionIndex}` }),
  };
  const element = el('tr', {}, [el('th', { scope: 'row', text: label }), cells.estimate, cells.interval, cells.consistent]);
  return {
    element,
    update(option) {
      setText(cells.estimate, formatPercent(option.frequency));
      setText(cells.interval, formatInterval(option.ci_low, option.ci_high));
      setText(cells.consistent, formatPercent(option.consistent_frequency));
      // The exact numbers, for machines (tests, screen-scrapers); the text is rounded.
      cells.estimate.dataset.value = String(option.frequency);
      cells.interval.dataset.low = String(option.ci_low);
      cells.interval.dataset.high = String(option.ci_high);
    },
  };
}
