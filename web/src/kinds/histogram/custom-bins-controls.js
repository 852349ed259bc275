import { el, setText } from '../../shared/dom.js';
import { createQuestionQueryPanel } from '../../shared/question-query-panel.js';
import { formatDecimal, formatNumber, withUnit } from '../../shared/format.js';
import { parseDecimal } from '../../shared/number-input.js';

// The analyst's own bins for histogram questions, chosen after collection:
// per question, edges ("0, 10000, 50000, 300000") or an equal bin width, sent
// to the server as ?<question id>.edges= or ?<question id>.width=. Left
// empty, nothing is added to the request. The server estimates them from the
// fine ranges already collected (approximately where an edge cuts one).

// More bars than this cannot be read on a screen (the server allows 4096).
const MAX_SHOWN_BINS = 200;

// An edge as typed in a comma-separated list: a decimal point only (the
// comma separates edges), an optional exponent.
const EDGE = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

export function createCustomBinsControls(onChange) {
  return createQuestionQueryPanel({
    testid: 'histogram-controls',
    heading: 'Histogram bins after collection',
    hint: 'Ask for bins of your own, estimated from the reports already collected. Bins whose edges are all among the question’s fine edges are exact; others are approximate, with a bound on how far off they can be. Applies to the page and the CSV export.',
    rowsClass: 'custom-bins-rows',
    usable: (histograms) => histograms.filter((question) => question.range),
    keyOf: (histograms) => histograms.map((question) => [question.id, question.range]),
    createRow: createQuestionRow,
    refusal: (reason) => `The server refused these bins: ${reason}`,
  }, onChange);
}

// One question's edges and bin width, and the message slot next to them.
function createQuestionRow(question, onChange) {
  const { id } = question;
  const [low, high] = question.range;
  const unit = question.unit ?? '';
  const names = { edges: `${id}.edges`, binWidth: `${id}.width` };
  const fieldId = (name) => `custom-${name}-${id}`;
  const hintId = fieldId('hint');
  const messageId = fieldId('message');
  const describedBy = `${hintId} ${messageId}`;
  // Without thousands separators, which would read as more edges.
  const plain = (value) => formatDecimal(value, 6);
  const edges = el('input', {
    id: fieldId('edges'), type: 'text', inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false',
    placeholder: `e.g. ${plain(low)}, ${plain((low + high) / 2)}, ${plain(high)}`, testid: `custom-edges-${id}`, 'aria-describedby': describedBy,
  });
  const binWidth = el('input', {
    id: fieldId('bin-width'), type: 'text', inputmode: 'decimal', autocomplete: 'off', spellcheck: 'false',
    testid: `custom-bin-width-${id}`, 'aria-describedby': describedBy,
  });
  const message = el('p', { class: 'field-error', id: messageId, role: 'alert', testid: `custom-bins-error-${id}`, hidden: true });
  edges.addEventListener('change', onChange);
  binWidth.addEventListener('change', onChange);

  const element = el('fieldset', { class: 'custom-bins' }, [
    el('legend', { text: question.text ?? id }),
    el('div', { class: 'custom-bins-fields' }, [
      el('div', { class: 'field' }, [el('label', { for: edges.id, text: unit ? `Edges (${unit})` : 'Edges' }), edges]),
      el('div', { class: 'field' }, [el('label', { for: binWidth.id, text: unit ? `Or equal bins of width (${unit})` : 'Or equal bins of width' }), binWidth]),
    ]),
    el('p', { class: 'hint', id: hintId, text: `Edges: increasing numbers within ${withUnit(`${plain(low)} to ${plain(high)}`, unit)}, separated by commas, with a decimal point. Bin width: equal bins from ${plain(low)} up. At most ${MAX_SHOWN_BINS} bins.` }),
    message,
  ]);

  const own = (query) => [query[names.edges] ?? null, query[names.binWidth] ?? null];
  return {
    element,
    read: () => readRow(edges.value, binWidth.value, { low, high, names }),
    restore(query) {
      const [edgesText, widthText] = own(query);
      edges.value = edgesText ?? '';
      binWidth.value = widthText ?? '';
    },
    changedFrom: (before, after) => JSON.stringify(own(before)) !== JSON.stringify(own(after)),
    showMessage(text) {
      setText(message, text ?? '');
      message.hidden = !text;
      for (const input of [edges, binWidth]) {
        if (text) input.setAttribute('aria-invalid', 'true');
        else input.removeAttribute('aria-invalid');
      }
    },
  };
}

// The row's part of the query ({} when both fields are empty), or an error
// that says what to change.
function readRow(edgesText, widthText, { low, high, names }) {
  const edges = edgesText.trim();
  const width = widthText.trim();
  if (edges && width) return { error: 'Give either edges or a bin width, not both.' };
  if (edges) {
    const parsed = parseEdges(edges, low, high);
    return parsed.error ? parsed : { query: { [names.edges]: parsed.edges.map(String).join(',') } };
  }
  if (width) {
    const parsed = parseDecimal(width);
    if (!parsed.ok) return { error: `Bin width: ${parsed.message}` };
    if (!(parsed.value > 0)) return { error: 'The bin width must be a positive number.' };
    const smallest = (high - low) / MAX_SHOWN_BINS;
    if (parsed.value < smallest) {
      return { error: `The bin width must be at least ${formatNumber(smallest)}, so that there are at most ${MAX_SHOWN_BINS} bins.` };
    }
    return { query: { [names.binWidth]: String(parsed.value) } };
  }
  return { query: {} };
}

// "0, 10000, 50000" to numbers: each an edge inside [low, high], increasing.
// Numbers in messages are written as typed (no thousands separators, which
// would read as more edges).
function parseEdges(text, low, high) {
  const plain = (value) => formatDecimal(value, 6);
  const parts = text.split(',').map((part) => part.trim());
  const edges = [];
  for (const [index, part] of parts.entries()) {
    if (!EDGE.test(part)) {
      return { error: `Edge ${index + 1} (“${part}”) is not a number: write digits with a decimal point (such as 1.5), and separate the edges with commas.` };
    }
    const value = Number(part);
    if (!(value >= low && value <= high)) return { error: `Edge ${index + 1} (${plain(value)}) is outside the range ${plain(low)} to ${plain(high)}.` };
    if (edges.length > 0 && !(value > edges.at(-1))) {
      return { error: `Edge ${index + 1} (${plain(value)}) is not above the edge before it (${plain(edges.at(-1))}).` };
    }
    edges.push(value);
  }
  if (edges.length < 2) return { error: 'Give at least two edges (one bin).' };
  if (edges.length > MAX_SHOWN_BINS + 1) return { error: `Give at most ${MAX_SHOWN_BINS + 1} edges (${MAX_SHOWN_BINS} bins).` };
  return { edges };
}
