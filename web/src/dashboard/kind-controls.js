import { kindOf } from '../kinds/registry.js';
import { isCentral } from '../central/trust.js';
import { isOpen } from '../shared/open.js';
import { createIntervalControl } from './interval-target.js';
import { dashboardKind } from './kinds.js';

// The analyst's estimation settings: one set of controls per question kind
// that has them (its dashboard module exports createControls(onChange), e.g.
// the numeric questions' estimator, smoothing and bin width). Each set is
// shown only when the survey has questions of its kind; their queries are
// sent together on the results and results.csv requests.
export function createKindControls(onChange) {
  const sets = dashboardKind.all()
    .filter(({ module }) => typeof module.createControls === 'function')
    .map(({ kind, module }) => ({ kind, controls: module.createControls(onChange) }));
  // What every question's intervals are for: one control for the page.
  sets.unshift({ kind: null, controls: createIntervalControl(onChange) });
  return {
    elements: sets.map(({ controls }) => controls.element),
    // Each set sees the questions of its own kind only; a question answered
    // in confidence has releases, and one asked openly exact counts, not
    // estimates to tune.
    show(questions) {
      const estimated = questions.filter((question) => !isCentral(question) && !isOpen(question));
      for (const { kind, controls } of sets) {
        controls.show(kind === null ? questions : estimated.filter((question) => kindOf(question.type) === kind));
      }
    },
    accept() {
      for (const set of sets) {
        set.controls.accept();
        set.accepted = set.controls.queryString();
      }
    },
    // The server refused the query: each set whose settings changed since the
    // last accepted query (every set, when none did) says why and goes back to
    // the last settings it accepted.
    reject(reason) {
      const changed = sets.filter((set) => set.controls.queryString() !== (set.accepted ?? ''));
      for (const { controls } of changed.length ? changed : sets) controls.reject(reason);
    },
    // The query string for the results and results.csv requests ('' by default).
    queryString() {
      const query = new URLSearchParams();
      for (const { controls } of sets) {
        for (const [key, value] of new URLSearchParams(controls.queryString())) query.append(key, value);
      }
      const search = query.toString();
      return search ? `?${search}` : '';
    },
  };
}
