// An invitation survey's gate: the code is exchanged for a blind token
// (invitation-token.js) before any question. `onCheck(code)` asks the page to
// exchange a code (the typed one, or one from the address), `onRetry()` to
// send the pending exchange again; render(context) shows the flow's gate
// states: waiting for a code, checking it, refused (context.error: why, in
// words), failed for want of an answer (a retry button), or stopped because
// the server's proof does not verify (context.detail: the technical reason,
// in a disclosure; nothing more is offered).
import { el } from '../shared/dom.js';
import { t } from './texts.js';

export function renderInvitationGate({ onCheck, onRetry }) {
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
  const failure = el('p', { class: 'notice notice-error', testid: 'gate-failed', role: 'alert' });
  const retryButton = el('button', { type: 'button', class: 'button button-primary', testid: 'gate-retry', text: t('retry') });
  const failed = el('div', { class: 'gate-failed', hidden: true }, [failure, el('div', { class: 'actions' }, [retryButton])]);
  const heading = el('h2', { id: 'gate-heading', tabindex: '-1', text: t('inviteTitle') });
  const needed = el('p', { testid: 'gate-needed', text: t('inviteNeeded') });
  const status = el('p', { class: 'notice', testid: 'gate-status', role: 'status', hidden: true });
  const element = el('section', { class: 'card invitation-gate', testid: 'invitation-gate', 'aria-labelledby': 'gate-heading' }, [
    heading, needed, status, form, failed,
  ]);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    onCheck(input.value.trim());
  });
  retryButton.addEventListener('click', () => onRetry());

  function busy(on) {
    button.disabled = on;
    retryButton.disabled = on;
    button.textContent = on ? t('inviteChecking') : t('inviteCheck');
    status.hidden = !on;
    status.textContent = on ? t('inviteChecking') : '';
  }

  return {
    element,
    render(context) {
      if (context.state === 'checkingCode') {
        busy(true);
      } else if (context.state === 'invitationRefused') {
        busy(false);
        failed.hidden = true;
        form.hidden = false;
        message.textContent = context.error;
        message.hidden = false;
        input.setAttribute('aria-invalid', 'true');
        input.focus();
      } else if (context.state === 'issuanceFailed') {
        busy(false);
        form.hidden = true;
        failure.textContent = context.error;
        failed.hidden = false;
        retryButton.focus();
      } else if (context.state === 'invitationUnverified') {
        busy(false);
        form.hidden = true;
        failed.hidden = true;
        heading.textContent = t('unverifiedTitle');
        needed.replaceWith(el('div', { class: 'notice notice-error', testid: 'gate-unverified', role: 'alert' }, [
          el('p', { text: context.error }),
          el('details', { testid: 'gate-unverified-detail' }, [
            el('summary', { text: t('technicalDetails') }),
            el('p', { class: 'hint', text: context.detail ?? '' }),
          ]),
        ]));
        heading.focus();
      }
    },
    // The code the server refused stays in the field, to be corrected.
    keep(code) {
      input.value = code;
    },
  };
}
