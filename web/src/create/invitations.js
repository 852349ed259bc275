import { bearer, requestJson, surveyPath } from '../shared/api.js';
import { el, replaceChildren } from '../shared/dom.js';
import { downloadBlob } from '../shared/download.js';
import { surveyPageUrl } from '../shared/location.js';
import { attachNumberMessage, numberInput } from '../shared/number-input.js';

// For invitation surveys: generate N single-use codes and list each as a
// ready-to-send link /s/{id}?code=...; the codes can be downloaded as CSV
// (code, link) or copied all at once (one link a line), since the server
// shows each code only once.
export function createInvitationsPanel(surveyId, adminToken) {
  const count = numberInput({ id: 'invitation-count', value: '10', whole: true, testid: 'invitation-count' });
  const countMessage = attachNumberMessage(count);
  const button = el('button', { type: 'submit', class: 'button', testid: 'generate-invitations', text: 'Generate invitation codes' });
  const status = el('p', { class: 'notice', role: 'status', hidden: true, testid: 'invitation-status' });
  const list = el('ol', { class: 'invitation-links', testid: 'invitation-links' });
  const downloadButton = el('button', { type: 'button', class: 'button button-small', testid: 'invitations-csv', text: 'Download CSV' });
  const copyButton = el('button', { type: 'button', class: 'button button-small', testid: 'invitations-copy', text: 'Copy all links' });
  const tools = el('div', { class: 'invitation-tools', hidden: true }, [downloadButton, copyButton]);
  const warning = el('p', { class: 'hint', hidden: true, testid: 'invitations-once', text: 'The server shows these codes only once: download or copy them before leaving this page.' });
  // Every code generated on this page, in order.
  const generated = [];
  const form = el('form', { class: 'invitations', novalidate: true }, [
    el('h3', { text: 'Invitations' }),
    el('p', { class: 'hint', testid: 'invitations-promise', text: 'Each code can send one report: give each invitee one link. When an invitee opens it, their browser ' +
      'exchanges the code for an anonymous pass (a blind token) and later sends the report with that pass, so neither the server nor you can tell ' +
      'which invitee sent which answers (the server still sees when pages are opened and reports arrive, as any website does). A code counts as used once its link is opened; ' +
      'an invitee who clears their browser’s data before sending loses the invitation (make them a new code).' }),
    el('div', { class: 'field field-inline' }, [el('label', { for: 'invitation-count', text: 'How many' }), count, button]),
    countMessage.element,
    status,
    warning,
    tools,
    list,
  ]);
  downloadButton.addEventListener('click', () => {
    const lines = ['code,link', ...generated.map(({ code, url }) => `${csvField(code)},${csvField(url)}`)];
    downloadBlob(new Blob([`${lines.join('\r\n')}\r\n`], { type: 'text/csv' }), `${surveyId}-invitations.csv`);
  });
  copyButton.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(generated.map(({ url }) => url).join('\n'));
      showStatus(status, 'success', `${generated.length} links copied to the clipboard, one a line.`);
    } catch (error) {
      showStatus(status, 'error', `Could not copy the links (${error.message}); use Download CSV instead.`);
    }
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const parsed = countMessage.check();
    if (!parsed.ok) {
      countMessage.update();
      count.focus();
      return;
    }
    button.disabled = true;
    status.hidden = true;
    try {
      const response = await requestJson(surveyPath(surveyId, '/invitations'), {
        method: 'POST', json: { count: parsed.value }, headers: bearer(adminToken()),
      });
      generated.push(...response.codes.map((code) => ({ code, url: surveyPageUrl(surveyId, code) })));
      replaceChildren(list, generated.map(({ url }) => el('li', {}, [el('a', { href: url, text: url })])));
      tools.hidden = false;
      warning.hidden = false;
      const total = generated.length === response.codes.length ? '' : ` (${generated.length} in all on this page)`;
      showStatus(status, 'success', `${response.codes.length} codes generated${total}.`);
    } catch (error) {
      showStatus(status, 'error', `Could not generate codes: ${error.message}`);
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

// RFC 4180: quote a field that holds a comma, a quote or a line break.
function csvField(text) {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function showStatus(status, kind, message) {
  status.className = `notice notice-${kind}`;
  status.textContent = message;
  status.hidden = false;
}
