import { bearer, requestJson, surveyPath } from '../shared/api.js';
import { el, replaceChildren } from '../shared/dom.js';
import { surveyPageUrl } from '../shared/location.js';
import { attachNumberMessage, numberInput } from '../shared/number-input.js';

// For invitation surveys: generate N single-use codes and list each as a
// ready-to-send link /s/{id}?code=...
export function createInvitationsPanel(surveyId, adminToken) {
  const count = numberInput({ id: 'invitation-count', value: '10', whole: true, testid: 'invitation-count' });
  const countMessage = attachNumberMessage(count);
  const button = el('button', { type: 'submit', class: 'button', testid: 'generate-invitations', text: 'Generate invitation codes' });
  const status = el('p', { class: 'notice', role: 'status', hidden: true, testid: 'invitation-status' });
  const list = el('ol', { class: 'invitation-links', testid: 'invitation-links' });
  const form = el('form', { class: 'invitations', novalidate: true }, [
    el('h3', { text: 'Invitations' }),
    el('p', { class: 'hint', text: 'Each code can send one report. Give each respondent one link.' }),
    el('div', { class: 'field field-inline' }, [el('label', { for: 'invitation-count', text: 'How many' }), count, button]),
    countMessage.element,
    status,
    list,
  ]);
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
      replaceChildren(list, response.codes.map((code) => {
        const url = surveyPageUrl(surveyId, code);
        return el('li', {}, [el('a', { href: url, text: url })]);
      }));
      showStatus(status, 'success', `${response.codes.length} codes generated.`);
    } catch (error) {
      showStatus(status, 'error', `Could not generate codes: ${error.message}`);
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

function showStatus(status, kind, message) {
  status.className = `notice notice-${kind}`;
  status.textContent = message;
  status.hidden = false;
}
