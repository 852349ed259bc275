// The dashboard's part of a "choose all that apply" question: each option's
// estimated share with 95% error bars (shares need not add up to 100%: a
// respondent may choose several), the number chosen (its mean, and its
// distribution with error bars where the reports allow one), and the tables
// carrying every number.
import { el, setText } from '../../shared/dom.js';
import { scrollBox } from '../../shared/scroll-box.js';
import { formatEpsilon, formatInteger, formatInterval, formatNumber, formatPercent } from '../../shared/format.js';
import { COMMON_FACTS, createResultCard } from '../../shared/result-card.js';
import { createFrequencyChart } from '../categorical/frequency-chart.js';

const MECHANISMS = {
  symmetric_bits: 'per-option bits (symmetric)',
  optimized_bits: 'per-option bits (optimised)',
  padding_sampling: 'padding and sampling',
};

// The numbers chosen the distribution has rows for: 0..m, or 0..l for padding (its last row "l or more" when l < m).
function sizesOf(question) {
  const last = question.mechanism?.padding ?? question.max_choices ?? question.options.length;
  return Array.from({ length: last + 1 }, (_, size) => size);
}

export function structure(question) {
  return [question.options.map((option) => option.label), sizesOf(question)];
}

// The charts read {frequency, ci_low, ci_high}.
const asPoint = (row) => ({ frequency: row.share, ci_low: row.ci_low, ci_high: row.ci_high });

function table(id, caption, headings, rows) {
  return scrollBox(el('table', { id, class: 'results-table', 'aria-describedby': `${id}-caption` }, [
    el('thead', {}, [el('tr', {}, headings.map((text) => el('th', { scope: 'col', text })))]),
    el('tbody', {}, rows.map((row) => row.element)),
  ]));
}

function createRow(testid, label) {
  const estimate = el('td', { class: 'number', testid: `estimate-${testid}` });
  const interval = el('td', { class: 'number interval', testid: `ci-${testid}` });
  const consistent = el('td', { class: 'number' });
  return {
    element: el('tr', {}, [el('th', { scope: 'row', text: label }), estimate, interval, consistent]),
    update(row) {
      setText(estimate, formatPercent(row.share));
      setText(interval, formatInterval(row.ci_low, row.ci_high));
      setText(consistent, formatPercent(row.consistent_share));
      estimate.dataset.value = String(row.share);
      interval.dataset.low = String(row.ci_low);
      interval.dataset.high = String(row.ci_high);
    },
  };
}

export function createPanel(question, index) {
  const id = question.id;
  const labels = question.options.map((option) => option.label);
  const sharesId = `question-table-${index}`;
  const chosenId = `question-chosen-table-${index}`;
  const sharesCanvas = el('canvas', { role: 'img', 'aria-describedby': sharesId, testid: `chart-${id}`,
    'aria-label': `Bar chart of the estimated share of respondents choosing each option of “${question.text}”, with 95% error bars. The table below lists the numbers.` });
  const chosenCanvas = el('canvas', { role: 'img', 'aria-describedby': chosenId, testid: `chosen-chart-${id}`,
    'aria-label': `Bar chart of the estimated share of respondents by how many options they chose, with 95% error bars. The table below lists the numbers.` });
  const shareRows = labels.map((label, optionIndex) => createRow(`${id}-${optionIndex}`, label));
  const sizes = sizesOf(question);
  const chosenRows = sizes.map((size) => createRow(`${id}-chosen-${size}`, String(size)));
  const chosenNote = el('p', { class: 'hint', testid: `chosen-note-${id}` });
  const chosenBox = el('div', { class: 'chart-box' }, [chosenCanvas]);
  const sharesBox = el('div', { class: 'chart-box' }, [sharesCanvas]);
  // The charts' heights follow their numbers of bars (CSSOM, allowed by the CSP; a style attribute is not).
  chosenBox.style.setProperty('--bars', String(sizes.length));
  sharesBox.style.setProperty('--bars', String(labels.length));
  const card = createResultCard(question, index, {
    facts: [...COMMON_FACTS, { key: 'mean', label: 'Mean number chosen' }, { key: 'guarantee', label: 'Guarantee' }],
    warning: (result) => (result.n > 0 ? `Warning: n = ${formatInteger(result.n)} is too small for useful estimates.` : 'Warning: no reports yet.'),
    error: false,
    body: [
      sharesBox,
      el('p', { class: 'hint', id: `${sharesId}-caption`, text: 'Estimated share of respondents choosing each option, with its 95% interval. A respondent may choose several, so the shares need not add up to 100%. Estimates are unbiased and can fall outside 0–100% with few reports; the consistent share is kept within 0–100%.' }),
      table(sharesId, '', ['Option', 'Share', '95% CI', 'Consistent'], shareRows),
      el('h4', { text: 'Number of options chosen' }),
      chosenBox,
      chosenNote,
      el('p', { class: 'hint', id: `${chosenId}-caption`, text: 'Estimated share of respondents by how many options they chose, with its 95% interval; the consistent shares are at least 0 and add up to 100%.' }),
      table(chosenId, '', ['Chosen', 'Share', '95% CI', 'Consistent'], chosenRows),
    ],
  });
  const { facts } = card;
  const sharesChart = createFrequencyChart(sharesCanvas, labels);
  const chosenChart = createFrequencyChart(chosenCanvas, sizes.map(String));
  return {
    element: card.element,
    update(result) {
      card.update(result);
      setText(facts.n, formatInteger(result.n));
      setText(facts.epsilon, formatEpsilon(result.privacy?.epsilon ?? null));
      setText(facts.mechanism, MECHANISMS[result.mechanism.name] ?? result.mechanism.name);
      setText(facts.guarantee, result.privacy?.guarantee ?? '');
      result.options.forEach((option, optionIndex) => shareRows[optionIndex].update(option));
      sharesChart.update(result.options.map(asPoint));
      const chosen = result.number_chosen;
      setText(facts.mean, chosen ? `${formatNumber(chosen.mean)} (95% CI ${formatNumber(chosen.ci_low)} to ${formatNumber(chosen.ci_high)})` : 'no reports yet');
      setText(chosenNote, chosen?.note ?? '');
      chosenBox.hidden = !chosen?.distribution;
      if (chosen?.distribution) {
        chosen.distribution.forEach((row, rowIndex) => chosenRows[rowIndex]?.update(row));
        chosenChart.update(chosen.distribution.map(asPoint));
      }
    },
    destroy() {
      sharesChart.destroy();
      chosenChart.destroy();
    },
  };
}
