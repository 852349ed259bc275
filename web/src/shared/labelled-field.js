// A labelled field of the creation page: its label, the input, a number
// field's message slot (shared/number-input.js) and an optional hint.
import { el } from './dom.js';
import { attachNumberMessage } from './number-input.js';

// Each number field's message slot, by input (numberMessageOf).
const numberMessages = new WeakMap();

// `hint`: a text (shown under the field and tied to it by aria-describedby),
// or an element the caller has tied itself, or null.
export function labelledField(input, label, hint = null) {
  let hintNode = hint;
  if (typeof hint === 'string') {
    hintNode = el('p', { class: 'hint', id: `${input.id}-hint`, text: hint });
    input.setAttribute('aria-describedby', hintNode.id);
  }
  const message = input.dataset.number ? attachNumberMessage(input) : null;
  if (message) numberMessages.set(input, message);
  return el('div', { class: 'field' }, [el('label', { for: input.id, text: label }), input, message?.element, hintNode]);
}

// The message slot of a number field laid out by labelledField.
export function numberMessageOf(input) {
  return numberMessages.get(input);
}
