// The dashboard's part of a histogram question: its results panel, and the
// controls for bins chosen after collection.
import { el, setText } from '../../shared/dom.js';
import { formatEpsilon, formatInteger, mechanismLabel } from '../../shared/format.js';
import { COMMON_FACTS, createResultCard } from '../../shared/result-card.js';
import { createBinsView } from './bins-view.js';
import { createQuantilesTable } from './quantiles-table.js';
import { edgeFormatter, rangeText } from './ranges.js';

export { createCustomBinsControls as createControls } from './custom-bins-controls.js';

// What the panel is built from: a panel is rebuilt only when this changes
// (the consumers' histograms are fixed for a survey version; the analyst's
// own bins are not, and their view follows them in place).
export function structure(question) {
  return (question.histograms ?? []).map((histogram) => [histogram.name, histogram.edges]);
}

// One histogram question of the results document: its facts (n, privacy,
// mechanism, bits per report), the server's warning, every data consumer's
// histogram (chart, table, expected precision), the analyst's own bins when
// asked for, and the quartiles. Built once; update() only changes text and data.
export function createPanel(question, index) {
  const id = question.id;
  const unit = question.unit ?? '';
  // An entry whose estimate failed carries only id, type and error.
  const range = question.range ?? [0, 1];
  const consumers = (question.histograms ?? []).map((histogram, consumerIndex) =>
    createConsumerSection(id, histogram.name, consumerIndex, range, unit));
  const custom = createCustomSection(id, range, unit);
  const quantiles = createQuantilesTable(id, range, unit);
  const notes = createFactNotes(id);
  const card = createResultCard(question, index, {
    variant: 'question-result-wide',
    facts: [
      ...COMMON_FACTS,
      { key: 'bits', label: 'Bits per report' },
    ],
    afterFacts: notes.elements,
    body: [
      el('p', { class: 'hint', text: 'Each data consumer’s histogram: the estimated share of answers per bin with its 95% interval. Estimates are unbiased, so with few reports they can fall outside 0–100% (the charts clip them); the consistent estimates are adjusted to be at least 0, to add up to 100%, and to agree between consumers wherever their bins cover the same fine ranges.' }),
      el('div', { class: 'consumer-grid' }, [
        consumers.map((section) => section.element),
        custom.element,
        el('section', { class: 'consumer-result', 'aria-labelledby': `quantiles-heading-${index}` }, [
          el('h3', { id: `quantiles-heading-${index}`, class: 'chart-title', text: 'Median and quartiles' }),
          quantiles.element,
        ]),
      ]),
    ],
  });

  return {
    element: card.element,
    update(result) {
      if (!card.update(result)) return;
      showFacts(card.facts, notes, result);
      result.histograms.forEach((histogram, consumerIndex) => consumers[consumerIndex].update(histogram));
      custom.update(result.custom);
      quantiles.update(result.quantiles);
    },
    destroy() {
      consumers.forEach((section) => section.destroy());
      custom.destroy();
    },
  };
}

// n, ε, mechanism and bits per report; under them the core's note on why ε
// holds for every consumer together, and for the tree its shape and why it was chosen.
function createFactNotes(id) {
  const privacyNote = el('p', { class: 'hint', testid: `privacy-note-${id}` });
  const treeNote = el('p', { class: 'hint', testid: `tree-${id}`, hidden: true });
  // The fine partition every consumer's bins are sums of: what a report marks, and the exact bins after collection.
  const fineSummary = el('summary');
  const fineList = el('ul', { class: 'report-values', tabindex: '0', 'aria-label': 'Fine ranges' });
  const fine = el('details', { class: 'report-details', testid: `fine-ranges-${id}` }, [fineSummary, fineList]);
  return { elements: [privacyNote, treeNote, fine], privacyNote, treeNote, fineSummary, fineList };
}

function showFacts(cells, notes, result) {
  setText(cells.n, formatInteger(result.n));
  setText(cells.epsilon, formatEpsilon(result.privacy?.epsilon ?? null));
  setText(cells.mechanism, result.mechanism ? mechanismLabel(result.mechanism) : '—');
  setText(cells.bits, bitsText(result));
  setText(notes.privacyNote, result.privacy?.note ? `Privacy: ${result.privacy.note}.` : '');
  notes.treeNote.hidden = !result.tree;
  setText(notes.treeNote, result.tree ? `Tree: fan-out ${result.tree.fanout}, ${result.tree.height} ${result.tree.height === 1 ? 'level' : 'levels'}; ${result.tree.reason}.` : '');
  showFineRanges(result, notes.fineSummary, notes.fineList);
}

// The fine ranges in the question's units; bins after collection whose edges
// are among these are exact.
function showFineRanges(result, summary, list) {
  const edges = result.fine?.edges ?? [];
  const format = edgeFormatter(edges, result.range);
  setText(summary, `The ${formatInteger(Math.max(0, edges.length - 1))} fine ranges (bins with edges among these are exact)`);
  list.replaceChildren(...edges.slice(1).map((high, index) =>
    el('li', { text: rangeText(edges[index], high, format, result.unit ?? '') })));
}

// A flat report has a bit per fine range; a tree report one per node of the
// level it picked, the deepest level (the fine ranges, padded) the most.
function bitsText(result) {
  const bits = formatInteger(result.bits_per_report);
  return result.tree ? `at most ${bits} (one per range of the level a report picks)` : `${bits} (one per fine range)`;
}

// A data consumer's histogram under its name, with the precision n buys.
function createConsumerSection(questionId, name, consumerIndex, range, unit) {
  const key = `${questionId}-${consumerIndex}`;
  const precision = el('p', { class: 'hint', testid: `precision-${key}` });
  const view = createBinsView({ key, title: `“${name}”`, range, unit });
  const element = el('section', { class: 'consumer-result', 'aria-label': `Histogram “${name}”`, testid: `consumer-${key}` }, [
    el('h3', { class: 'chart-title', text: `Histogram “${name}”` }),
    precision,
    view.element,
  ]);
  return {
    element,
    update(histogram) {
      setText(precision, precisionText(histogram.expected_ci_half_width));
      view.update(histogram.bins);
    },
    destroy: () => view.destroy(),
  };
}

function precisionText(halfWidth) {
  if (halfWidth === null || halfWidth === undefined) return 'Expected 95% precision: no reports yet.';
  return `Expected 95% precision of a bin: ±${(halfWidth * 100).toFixed(1)} points.`;
}

// The analyst's own bins (?<id>.edges= or ?<id>.width=, from the
// controls above the results): exact when every edge is a fine edge,
// otherwise approximate, with the most each bin can be off.
function createCustomSection(questionId, range, unit) {
  const key = `${questionId}-custom`;
  const note = el('p', { class: 'notice hint', testid: `custom-note-${questionId}`, hidden: true });
  const none = el('p', { class: 'hint', testid: `custom-none-${questionId}`, text: 'None yet: choose edges or a bin width under “Histogram bins after collection” above.' });
  const view = createBinsView({ key, title: 'your bins', range, unit, withBias: true });
  const element = el('section', { class: 'consumer-result', 'aria-label': 'Your bins, chosen after collection', testid: `custom-${questionId}` }, [
    el('h3', { class: 'chart-title', text: 'Your bins (chosen after collection)' }),
    none,
    note,
    view.element,
  ]);
  return {
    element,
    update(custom) {
      none.hidden = Boolean(custom);
      view.element.hidden = !custom;
      note.hidden = !custom?.note;
      setText(note, custom?.note ? `Approximate: ${custom.note.replace(/^approximate:\s*/, '')}.` : '');
      if (custom) view.update(custom.bins);
    },
    destroy: () => view.destroy(),
  };
}
