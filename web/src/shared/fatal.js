import { el, replaceChildren } from './dom.js';

// Replaces a page's content with one clear error message.
export function showFatalError(main, title, message) {
  document.title = `${title} — Deniable`;
  replaceChildren(main, [
    el('h1', { text: title }),
    el('p', { class: 'notice notice-error', role: 'alert', testid: 'fatal-error', text: message }),
    el('p', {}, [el('a', { href: '/', text: 'Back to the start page' })]),
  ]);
}
