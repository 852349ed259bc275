import { requestJson, surveyPath } from '../shared/api.js';
import { el, replaceChildren } from '../shared/dom.js';

// The corrections of the survey's wording made while it ran (issue 33): each
// change with its date, "Wording corrected on <date>: <where>: “old” → “new”",
// so that whoever reads the results knows which words respondents saw when.
// Read from GET /api/surveys/<id>/corrections at start and then at most every
// 10 s (a correction is a rare admin action); hidden while there is none.

const REFRESH_MS = 10000;

export function createCorrections(surveyId) {
  const list = el('ul', { class: 'correction-list', testid: 'corrections-list' });
  const element = el('section', { class: 'card corrections', hidden: true, testid: 'corrections', 'aria-labelledby': 'corrections-heading' }, [
    el('h2', { id: 'corrections-heading', text: 'Wording corrected while the survey ran' }),
    el('p', { class: 'hint', text: 'Reports sent before and after a correction are counted together: only words changed, never the options, mechanisms or budgets.' }),
    list,
  ]);
  let last = 0;
  let shown = '';
  async function refresh() {
    if (Date.now() - last < REFRESH_MS) return;
    last = Date.now();
    try {
      const { corrections } = await requestJson(surveyPath(surveyId, '/corrections'));
      const key = JSON.stringify(corrections);
      if (key === shown) return;
      shown = key;
      replaceChildren(list, corrections.flatMap((correction) => correction.changes.map((change) =>
        el('li', { text: `Wording corrected on ${describeDate(correction.made_at)}: ${change.where}: “${change.before}” → “${change.after}”` }))));
      element.hidden = corrections.length === 0;
    } catch {
      last = 0;  // tried again at the next poll
    }
  }
  return { element, refresh };
}

function describeDate(utc) {
  const date = new Date(utc);
  if (Number.isNaN(date.getTime())) return utc;
  return `${date.toLocaleDateString(undefined, { dateStyle: 'medium' })} (${utc})`;
}
