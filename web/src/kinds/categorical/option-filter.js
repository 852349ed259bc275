import { el, setText } from '../../shared/dom.js';
import { formatInteger } from '../../shared/format.js';

// A question with many options (thousands are allowed) cannot draw a bar per
// option: the chart shows the top LIMIT by estimate, or the options a search
// matches (their top LIMIT), with a note saying how many; the table keeps all.
const LIMIT = 25;

export function createOptionFilter(questionId, optionCount, onChange) {
  const many = optionCount > LIMIT;
  const inputId = `option-search-${questionId}`;
  const input = el('input', { id: inputId, type: 'search', autocomplete: 'off', spellcheck: 'false', testid: `option-search-${questionId}` });
  const note = el('p', { class: 'hint', role: 'status', testid: `chart-note-${questionId}` });
  const element = many
    ? el('div', { class: 'option-filter' }, [
      el('div', { class: 'option-search' }, [el('label', { for: inputId, text: 'Find options' }), input]),
      note,
    ])
    : null;
  input.addEventListener('input', () => onChange());
  return {
    element,
    limit: LIMIT,
    query: () => input.value.trim().toLowerCase(),
    describe(shown, matching) {
      if (!many) return;
      const all = `${formatInteger(optionCount)} options`;
      const query = input.value.trim();
      if (!query) setText(note, `Showing the top ${formatInteger(shown)} of ${all} by estimate; all are in the table below.`);
      else if (matching === 0) setText(note, `No option matches “${query}”; all ${all} are in the table below.`);
      else setText(note, `Showing ${formatInteger(shown)} of the ${formatInteger(matching)} options matching “${query}” (of ${all}), top by estimate; all are in the table below.`);
    },
  };
}

// The indices of the options to draw: those whose label contains `query`
// (all when empty), the largest estimates first, at most `limit`; `matching`
// counts the matches. Options without an estimate come last, in their order.
export function topOptions(labels, options, query, limit) {
  const matches = labels.map((_, index) => index).filter((index) => !query || labels[index].toLowerCase().includes(query));
  const value = (index) => options[index]?.frequency ?? -Infinity;
  const shown = (labels.length <= limit && !query)
    ? matches
    : [...matches].sort((a, b) => value(b) - value(a) || a - b).slice(0, limit);
  return Object.assign(shown, { matching: matches.length });
}
