// A dashboard panel of per-question settings that the results are asked
// with (a block's cross-tabulation, a histogram's own bins): one row per
// usable question, a query built from the rows, the last query the server
// accepted, and going back to it, with the reason beside the rows that
// changed, when the server refuses. The kind gives what differs.
import { el, replaceChildren } from './dom.js';

// `testid`, `heading`, `hint`, `rowsClass`: the card. `usable(questions)`:
// the questions that get a row; `keyOf(usable)`: what the rows are built
// for (rebuilt when it changes); `createRow(question, apply)`: a row with
// element, read() -> {query, error}, showMessage(text), changedFrom(a, b)
// and restore(query); `refusal(reason)`: the message shown when refused.
// `onChange()`: the query changed (the results are asked for again).
export function createQuestionQueryPanel({ testid, heading, hint, rowsClass, usable, keyOf, createRow, refusal }, onChange) {
  const headingId = `${testid}-heading`;
  const rowsBox = el('div', { class: rowsClass });
  const element = el('section', { class: 'card', hidden: true, testid, 'aria-labelledby': headingId }, [
    el('h2', { id: headingId, class: 'controls-heading', text: heading }),
    el('p', { class: 'hint', text: hint }),
    rowsBox,
  ]);

  let rows = [];      // one per usable question
  let shownKey = '';  // the questions the rows were built for
  let query = {};     // what the next request asks for
  let accepted = {};  // the last query the server answered

  const apply = () => {
    const next = {};
    let failed = false;
    for (const row of rows) {
      const { query: own, error } = row.read();
      row.showMessage(error);
      failed = failed || Boolean(error);
      Object.assign(next, own);
    }
    if (failed || JSON.stringify(next) === JSON.stringify(query)) return;
    query = next;
    onChange();
  };

  return {
    element,
    // `questions`: the survey's questions of the kind (results entries).
    show(questions) {
      const shown = usable(questions);
      const key = JSON.stringify(keyOf(shown));
      element.hidden = shown.length === 0;
      if (key === shownKey) return;
      shownKey = key;
      rows = shown.map((question) => createRow(question, apply));
      replaceChildren(rowsBox, rows.map((row) => row.element));
    },
    accept() {
      accepted = query;
    },
    // The server refused the query: say why next to the questions whose
    // settings changed (all of them when none did), and go back to the last
    // accepted query.
    reject(reason) {
      const changed = rows.filter((row) => row.changedFrom(accepted, query));
      query = accepted;
      for (const row of rows) row.restore(accepted);
      for (const row of changed.length ? changed : rows) row.showMessage(refusal(reason));
      onChange();
    },
    // The query string for the results and results.csv requests ('' by default).
    queryString() {
      const search = new URLSearchParams(query).toString();
      return search ? `?${search}` : '';
    },
  };
}
