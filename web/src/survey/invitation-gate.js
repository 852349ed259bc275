// An invitation survey's gate: the code is checked (not spent) before any
// question. `onCheck(code)` asks the page to check a code (the typed one, or
// one from the address); render(context) shows the flow's gate states:
// waiting for a code, checking it, or refused (context.error: why, in words).
import { el } from '../shared/dom.js';
import { t } from './texts.js';

export function renderInvitationGate({ onCheck }) {
  const input = el('input', {
    id: 'gate-code', name: 'gate-code', type: 'text', autocomplete: 'off', spellcheck: 'false', testid: 'gate-code',
    'aria-describedby': 'gate-message',
  });
  const message = el('p', { id: 'gate-message', class: 'field-error', testid: 'gate-message', role: 'alert', hidden: true });
  const button = el('button', { type: 'submit', class: 'button button-primary', testid: 'gate-check', text: t('inviteCheck') });
  const form = el('form', { class: 'gate-form', novalidate: true }, [
    el('div', { class: 'field' }, [el('label', { for: 'gate-code', text: t('inviteLabel') }), input, message]),
    el('div', { class: 'actions' }, [button]),
  ]);
  const element = el('section', { class: 'card invitation-gate', testid: 'invitation-gate', 'aria-labelledby': 'gate-heading' }, [
    el('h2', { id: 'gate-heading', text: t('inviteTitle') }),
    el('p', { testid: 'gate-needed', text: t('inviteNeeded') }),
    form,
  ]);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    onCheck(input.value.trim());
  });
  return {
    element,
    render(context) {
      if (context.state === 'checkingCode') {
        button.disabled = true;
        button.textContent = t('inviteChecking');
      } else if (context.state === 'invitationRefused') {
        button.disabled = false;
        button.textContent = t('inviteCheck');
        message.textContent = context.error;
        message.hidden = false;
        input.setAttribute('aria-invalid', 'true');
        input.focus();
      }
    },
    // The code the server refused stays in the field, to be corrected.
    keep(code) {
      input.value = code;
    },
    // Accepted: the gate gives way to a line that says so.
    accept() {
      element.replaceWith(el('p', { class: 'notice notice-success', testid: 'gate-valid', text: t('inviteOk') }));
    },
  };
}
