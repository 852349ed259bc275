// The dashboard's part of a rating grid: per item its mean position on the
// scale (1 = the lowest level) with its 95% interval, and its distribution
// over the levels (consistent shares, each with its interval) in one table;
// the facts say the grid's ε and each item's share of it.
import { el, setText } from '../../shared/dom.js';
import { scrollBox } from '../../shared/scroll-box.js';
import { formatEpsilon, formatInteger, formatInterval, formatNumber, formatPercent, formatSignificant } from '../../shared/format.js';
import { COMMON_FACTS, createResultCard } from '../../shared/result-card.js';

// What the panel is built from: a panel is rebuilt only when this changes.
export function structure(question) {
  return [question.scale ?? [], (question.items ?? []).map((item) => item.label)];
}

const MECHANISM_NAMES = {
  ordinal: 'Ordinal (exponential mechanism, nearby levels favoured)',
  grr: 'GRR (randomised response)',
  duchi: 'Duchi on positions (the mean only: no distribution)',
};

export function createPanel(question, index) {
  const id = question.id;
  const scale = question.scale ?? [];
  const items = (question.items ?? []).map((item) => item.label);
  const tableId = `question-table-${index}`;
  const rows = items.map((label, row) => createRow(id, label, row, scale.length));
  const card = createResultCard(question, index, {
    facts: [...COMMON_FACTS, { key: 'scale', label: 'Scale' }],
    warning: (result) => `Warning: ${result.warning}.`,
    body: [
      el('p', { class: 'hint', id: `${tableId}-caption`, text: CAPTION(scale) }),
      scrollBox(el('table', { id: tableId, class: 'results-table grid-results', 'aria-describedby': `${tableId}-caption`, testid: `table-${id}` }, [
        el('thead', {}, [el('tr', {}, [
          el('th', { scope: 'col', text: 'Item' }),
          el('th', { scope: 'col', text: 'Mean position' }),
          el('th', { scope: 'col', text: '95% CI' }),
          ...scale.map((level, levelIndex) => el('th', { scope: 'col', text: `${levelIndex + 1}. ${level}` })),
        ])]),
        el('tbody', {}, rows.map((row) => row.element)),
      ]), { label: `Mean position and distribution per item for “${question.text ?? id}”`, testid: `table-box-${id}` }),
    ],
  });
  const { facts } = card;
  return {
    element: card.element,
    update(result) {
      if (!card.update(result)) return;
      setText(facts.n, formatInteger(result.n));
      setText(facts.epsilon, `${formatEpsilon(result.privacy?.epsilon ?? null)} for the whole grid (${formatNumber(result.privacy?.epsilon_per_item)} per item)`);
      setText(facts.mechanism, MECHANISM_NAMES[result.mechanism?.name] ?? result.mechanism?.name ?? '');
      setText(facts.scale, `${scale.length} levels, 1 = “${scale[0]}” to ${scale.length} = “${scale[scale.length - 1]}”`);
      result.items.forEach((item, row) => rows[row]?.update(item));
    },
    destroy() {},
  };
}

const CAPTION = (scale) => `Per item: the mean position on the scale (1 to ${scale.length}), unbiased, with its 95% interval, and the share of respondents at each level (consistent estimates: at least 0 and adding up to 100%, each with its 95% interval). With few reports the unbiased mean can fall outside 1–${scale.length}.`;

function createRow(questionId, label, row, levels) {
  const mean = el('td', { class: 'number', testid: `mean-${questionId}-${row}` });
  const interval = el('td', { class: 'number interval', testid: `mean-ci-${questionId}-${row}` });
  const shares = Array.from({ length: levels }, (_, level) => el('td', { class: 'number', testid: `share-${questionId}-${row}-${level}` }));
  return {
    element: el('tr', {}, [el('th', { scope: 'row', text: label }), mean, interval, ...shares]),
    update(item) {
      const estimate = item.mean?.estimate;
      setText(mean, estimate === null || estimate === undefined ? '—' : formatSignificant(estimate, 3));
      setText(interval, estimate === null || estimate === undefined ? '—' : positionInterval(item.mean.ci_low, item.mean.ci_high));
      // The exact numbers, for machines (tests, screen-scrapers); the text is rounded.
      mean.dataset.value = String(estimate);
      interval.dataset.low = String(item.mean?.ci_low);
      interval.dataset.high = String(item.mean?.ci_high);
      // Duchi gives no distribution: its cells say so.
      if (!Array.isArray(item.levels)) {
        for (const cell of shares) {
          setText(cell, 'not estimated');
          cell.dataset.value = 'null';
        }
        return;
      }
      item.levels.forEach((level, levelIndex) => {
        const cell = shares[levelIndex];
        if (!cell) return;
        setText(cell, level.consistent_frequency === null
          ? '—'
          : `${formatPercent(level.consistent_frequency)} (${formatInterval(level.consistent_ci_low, level.consistent_ci_high)})`);
        cell.dataset.value = String(level.consistent_frequency);
      });
    },
  };
}

// A mean position's interval: numbers on the scale, not percentages.
function positionInterval(low, high) {
  return `${formatSignificant(low, 3)}\u00a0to ${formatSignificant(high, 3)}`;
}
