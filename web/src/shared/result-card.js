// The card every question's results panel on the dashboard is built on (each
// kind's dashboard.js, the open numeric panel, central/dashboard.js): the
// heading, the facts list (dl.facts: n, privacy, mechanism and the kind's
// own), and the notices under it: how many skipped an optional question, the
// server's warning and the estimate's error. The kind brings its facts and
// the body below; the card keeps the DOM (classes, ids, testids) the same for
// every kind.
import { el, setText } from './dom.js';
import { formatInteger } from './format.js';

// The id of a panel's heading (`aria-labelledby` of the card and of anything
// a kind labels with it).
export function resultHeadingId(index) {
  return `question-heading-${index}`;
}

// The facts most panels open with: n, the privacy and the mechanism.
export const COMMON_FACTS = Object.freeze([
  { key: 'n', label: 'Respondents (n)' },
  { key: 'epsilon', label: 'Privacy' },
  { key: 'mechanism', label: 'Mechanism' },
]);

const defaultWarning = (result) => `Warning: ${result.warning}`;
const defaultError = (message) => `The estimate failed: ${message}`;

// `question`: the results entry's question ({id, text}); `index`: its place.
// Options:
//   variant: extra classes after "card question-result" ('question-result-wide', …);
//   lead: nodes between the heading and the facts;
//   facts: [{key, label, testid = key, text, labelId, content}] (falsy entries left out):
//     each a dt `label` and a dd (testid `${testid}-${question id}`, its `text`),
//     or, with `content`, a dd holding those nodes (no testid) under a dt with id `labelId`;
//   afterFacts: nodes between the facts and the notices;
//   warning: false (none), or (result) => its text when result.warning is set;
//   error: false (none), or (message) => its text when result.error is set;
//   body: nodes after the notices.
// Returns {element, facts: {key: dd}, warning (its element, or null), update(result)}:
// update shows the notices and returns false when the estimate failed (the
// panel then shows nothing else new).
export function createResultCard(question, index, options = {}) {
  const { variant = '', lead = [], afterFacts = [], body = [] } = options;
  const id = question.id;
  const headingId = resultHeadingId(index);
  const facts = {};
  const rows = (options.facts ?? []).filter(Boolean).map((fact) => {
    const dd = fact.content
      ? el('dd', {}, fact.content)
      : el('dd', { testid: `${fact.testid ?? fact.key}-${id}`, text: fact.text });
    facts[fact.key] = dd;
    return el('div', {}, [el('dt', { id: fact.labelId, text: fact.label }), dd]);
  });
  const notices = createNotices(id, options);
  const element = el('section', {
    class: variant ? `card question-result ${variant}` : 'card question-result', 'aria-labelledby': headingId, testid: `question-${id}`,
  }, [
    el('h2', { id: headingId, text: question.text ?? id }),
    lead,
    el('dl', { class: 'facts' }, rows),
    afterFacts,
    notices.elements,
    body,
  ]);
  return { element, facts, warning: notices.warning, update: notices.update };
}

// When it is asked (a condition: "asked_only_when" in its results entry),
// how many skipped it (an optional question: "required": false in its
// results entry; its n is those who answered, which its estimates and
// warnings use), the server's warning, and the estimate's error.
function createNotices(id, { warning: warningText = defaultWarning, error: errorText = defaultError }) {
  const skipped = el('p', { class: 'hint skipped-note', testid: `skipped-${id}`, hidden: true });
  // A question with a condition ("show_if"): asked only of some respondents, its n counts only them.
  const condition = el('p', { class: 'hint condition-note', testid: `condition-${id}`, hidden: true });
  const warning = warningText ? el('p', { class: 'notice notice-warning', testid: `warning-${id}`, hidden: true }) : null;
  const error = errorText ? el('p', { class: 'notice notice-error', role: 'alert', testid: `error-${id}`, hidden: true }) : null;
  return {
    elements: [condition, skipped, warning, error],
    warning,
    update(result) {
      if (error) {
        error.hidden = !result.error;
        setText(error, result.error ? errorText(result.error) : '');
        if (result.error) return false;
      }
      condition.hidden = !result.asked_only_when;
      if (result.asked_only_when) setText(condition, `Asked only when ${result.asked_only_when}: n = ${formatInteger(result.n ?? 0)}.`);
      const optional = result.required === false;
      skipped.hidden = !optional;
      if (optional) setText(skipped, `Optional question: answered by ${formatInteger(result.n)}, skipped by ${formatInteger(result.skipped ?? 0)}.`);
      if (warning) {
        warning.hidden = !result.warning;
        setText(warning, result.warning ? warningText(result) : '');
      }
      return true;
    },
  };
}
