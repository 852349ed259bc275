import { el } from '../shared/dom.js';
import { loadAdminToken, saveAdminToken } from '../shared/admin-token.js';

// Shown when the results are admin-only (or the token was refused).
export function createAdminTokenForm(onToken) {
  const input = el('input', {
    id: 'admin-token', type: 'password', autocomplete: 'off', spellcheck: 'false', testid: 'admin-token',
    value: loadAdminToken(),
  });
  const message = el('p', { class: 'notice notice-warning', testid: 'admin-token-message' });
  const form = el('form', { class: 'card admin-form', hidden: true, testid: 'admin-token-form' }, [
    el('h2', { text: 'Admin token needed' }),
    message,
    el('div', { class: 'field field-inline' }, [
      el('label', { for: 'admin-token', text: 'Admin token' }),
      input,
      el('button', { type: 'submit', class: 'button button-primary', testid: 'admin-token-submit', text: 'Show results' }),
    ]),
    el('p', { class: 'hint', text: 'The server printed the token when it first started. It is kept only for this browser tab.' }),
  ]);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    saveAdminToken(input.value.trim());
    form.hidden = true;
    onToken();
  });
  return {
    element: form,
    show(text) {
      message.textContent = text;
      form.hidden = false;
      input.focus();
    },
    hide() {
      form.hidden = true;
    },
  };
}
