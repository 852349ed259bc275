import { requestJson, bearer, surveyPath } from '../shared/api.js';
import { el, setText } from '../shared/dom.js';
import { formatInteger } from '../shared/format.js';

// Deleting a survey: a dialog that says plainly what happens and asks for the
// survey id to be typed. A wrong id deletes nothing.
export function createDeleteDialog({ token, onDeleted }) {
  let survey = null;
  const heading = el('h2', { id: 'delete-heading' });
  const statement = el('p', { testid: 'delete-statement' });
  const input = el('input', { id: 'delete-confirm', type: 'text', autocomplete: 'off', spellcheck: 'false', testid: 'delete-confirm' });
  const message = el('p', { class: 'notice notice-error', role: 'alert', hidden: true, testid: 'delete-error' });
  const cancel = el('button', { type: 'button', class: 'button', testid: 'delete-cancel', text: 'Cancel' });
  const submit = el('button', { type: 'submit', class: 'button button-danger', testid: 'delete-submit', text: 'Delete for good' });
  const form = el('form', { novalidate: true }, [
    heading,
    statement,
    el('div', { class: 'field' }, [el('label', { for: input.id, text: 'Survey id' }), input]),
    message,
    el('div', { class: 'actions' }, [submit, cancel]),
  ]);
  const element = el('dialog', { class: 'card delete-dialog', 'aria-labelledby': heading.id, testid: 'delete-dialog' }, [form]);
  cancel.addEventListener('click', () => element.close());
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (input.value.trim() !== survey.id) {
      showMessage(`The id typed does not match “${survey.id}”: nothing was deleted.`);
      input.focus();
      return;
    }
    submit.disabled = true;
    try {
      const response = await requestJson(surveyPath(survey.id, '/delete'), {
        method: 'POST', json: { confirm: survey.id }, headers: bearer(token()),
      });
      element.close();
      onDeleted(response.message ?? `Survey “${survey.id}” and its ${formatInteger(response.reports_deleted)} reports were deleted.`);
    } catch (error) {
      showMessage(`Nothing was deleted: ${error.message}`);
    } finally {
      submit.disabled = false;
    }
  });

  function showMessage(text) {
    setText(message, text);
    message.hidden = false;
  }

  return {
    element,
    open(next) {
      survey = next;
      setText(heading, `Delete “${survey.title || survey.id}”?`);
      const reports = survey.respondents === 1 ? '1 report' : `${formatInteger(survey.respondents)} reports`;
      setText(statement, `This deletes the survey, its ${reports}, its invitation codes and its releases for good. ` +
        `The id cannot be used again. Type the survey id (${survey.id}) to confirm.`);
      input.value = '';
      message.hidden = true;
      element.showModal();
      input.focus();
    },
  };
}
