import { el, setText } from './dom.js';
import { formatInteger } from './format.js';

// On an optional question's results panel ("required": false in its results
// entry): how many answered it (its n, which its estimates and warnings
// use) and how many reports skipped it. Hidden for a required question.
export function createSkippedNote(questionId) {
  const element = el('p', { class: 'hint skipped-note', testid: `skipped-${questionId}`, hidden: true });
  return {
    element,
    update(result) {
      const optional = result.required === false;
      element.hidden = !optional;
      if (optional) setText(element, `Optional question: answered by ${formatInteger(result.n)}, skipped by ${formatInteger(result.skipped ?? 0)}.`);
    },
  };
}
