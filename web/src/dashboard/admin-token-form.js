import { el } from '../shared/dom.js';
import { loadAdminToken, saveAdminToken } from '../shared/admin-token.js';

// Shown when the results are admin-only (or the token was refused).
export function createAdminTokenForm(onToken) {
  const input = el('input', {
    id: 'admin-token', type: 'password', autocomplete: 'off', spellcheck: 'false', testid: 'admin-token',
    value: loadAdminToken(),
  });
  const message = el('p', { class: 'notice notice-warning', testid: 'admin-token-message' });
  const heading = el('h2', { text: 'Sign in to see the results' });
  const submit = el('button', { type: 'submit', class: 'button button-primary', testid: 'admin-token-submit', text: 'Sign in' });
  const form = el('form', { class: 'card admin-form', hidden: true, testid: 'admin-token-form' }, [
    heading,
    message,
    el('div', { class: 'field field-inline' }, [
      el('label', { for: 'admin-token', text: 'Admin token' }),
      input,
      submit,
    ]),
    el('p', { class: 'hint', text: 'The server printed the token when it first started. It is kept only for this browser tab.' }),
  ]);
  // 'required': the results need the token; 'offered': the admin asked to
  // sign in (e.g. to make releases) on results anyone can see.
  let mode = null;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    saveAdminToken(input.value.trim());
    form.hidden = true;
    mode = null;
    onToken();
  });
  const open = (text, nextMode, headingText, submitText) => {
    mode = nextMode;
    message.textContent = text;
    heading.textContent = headingText;
    submit.textContent = submitText;
    form.hidden = false;
    input.focus();
  };
  return {
    element: form,
    show(text) {
      open(text, 'required', 'Sign in to see the results', 'Sign in');
    },
    offer(text) {
      open(text, 'offered', 'Admin sign-in', 'Sign in');
    },
    // Results arrived: a form that asked for the token is done; one the admin asked for stays.
    hide() {
      if (mode === 'offered') return;
      form.hidden = true;
      mode = null;
    },
  };
}
