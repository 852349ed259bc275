import { bearer, requestJson, surveyPath } from '../shared/api.js';
import { el, replaceChildren, setText } from '../shared/dom.js';
import { formatInteger } from '../shared/format.js';
import { dashboardUrl, surveyPageUrl } from '../shared/location.js';
import { loadAdminToken, saveAdminToken } from '../shared/admin-token.js';
import { createDeleteDialog } from './delete-dialog.js';
import { describeClosing, localInputToUtc, utcToLocalInput } from './closing-time.js';

// Manage surveys: the admin signs in with the admin token (a form), then sees
// every survey on this server with its n and status, and can close or reopen
// it (with an optional closing time), correct its wording while it runs (the
// builder at /create?correct=<id>), start a new version as a copy (the
// builder at /create?from=<id>), preview it as a respondent, or delete it.

const main = document.getElementById('manage-page');

function start() {
  const signIn = createSignInForm(() => load());
  const status = el('p', { class: 'notice', role: 'status', hidden: true, testid: 'manage-status' });
  const list = el('ul', { class: 'manage-list', testid: 'survey-list' });
  const empty = el('p', { class: 'hint', hidden: true, testid: 'survey-list-empty', text: 'No surveys yet.' });
  const toolbar = el('div', { class: 'actions manage-toolbar', hidden: true }, [
    el('a', { class: 'button button-primary', href: '/create', testid: 'manage-create', text: 'Create a survey' }),
    button('Refresh', 'manage-refresh', () => load()),
    button('Sign out', 'manage-sign-out', () => {
      saveAdminToken('');
      toolbar.hidden = true;
      replaceChildren(list, []);
      empty.hidden = true;
      signIn.show('Signed out. Enter the admin token to manage surveys.');
    }),
  ]);
  // A message about one survey is shown on that survey's card (kept across the
  // reload of the list that follows an action), where the admin acted.
  const notes = new Map();
  const dialog = createDeleteDialog({ token: () => loadAdminToken(), onDeleted: (message) => { showStatus(status, 'success', message); load(); } });
  replaceChildren(main, [
    el('h1', { text: 'Manage surveys' }),
    el('p', { class: 'lead', text: 'Every survey on this server: how many have answered, whether it accepts answers, and what you can do with it.' }),
    signIn.element,
    toolbar,
    status,
    empty,
    list,
    dialog.element,
  ]);

  async function load() {
    const token = loadAdminToken();
    if (!token) {
      signIn.show('Enter the admin token to see and manage your surveys.');
      return;
    }
    try {
      const response = await requestJson('/api/surveys', { headers: bearer(token) });
      signIn.hide();
      toolbar.hidden = false;
      empty.hidden = response.surveys.length > 0;
      replaceChildren(list, response.surveys.map((survey) => surveyItem(survey)));
    } catch (error) {
      if (error.status === 401 || error.status === 403) {
        toolbar.hidden = true;
        replaceChildren(list, []);
        signIn.show(`The token was refused: ${error.message}`);
        return;
      }
      showStatus(status, 'error', `Could not load the surveys: ${error.message}`);
    }
  }

  // One survey: title, id, version, n, status with its closing time, who sees
  // the results, its links and actions.
  function surveyItem(survey) {
    const id = survey.id;
    const itemStatus = el('p', { class: 'notice', role: 'status', hidden: true, tabindex: '-1', testid: `item-status-${id}` });
    const note = notes.get(id);
    if (note) {
      notes.delete(id);
      showStatus(itemStatus, note.kind, note.message);
      if (note.focus) queueMicrotask(() => itemStatus.focus());
    }
    const closing = el('input', {
      id: `closes-at-${id}`, type: 'datetime-local', testid: `closes-at-${id}`, value: utcToLocalInput(survey.closes_at),
    });
    const setStatus = async (body, done) => {
      try {
        await requestJson(surveyPath(id, '/status'), { method: 'POST', json: body, headers: bearer(loadAdminToken()) });
        notes.set(id, { kind: 'success', message: done, focus: true });
        await load();
      } catch (error) {
        showStatus(itemStatus, 'error', error.message);
      }
    };
    const closed = survey.status === 'closed';
    const futureClose = survey.closes_at && new Date(survey.closes_at) > new Date() ? survey.closes_at : null;
    const toggle = closed
      ? button('Reopen', `reopen-${id}`, () => setStatus({ status: 'open', closes_at: futureClose }, `“${survey.title}” is open again: it accepts answers.`))
      : button('Close now', `close-${id}`, () => setStatus({ status: 'closed', closes_at: survey.closes_at ?? null }, `“${survey.title}” is closed: new reports are refused with a message saying so.`));
    const closingForm = el('form', { class: 'closing-form', novalidate: true }, [
      el('label', { for: closing.id, text: 'Closing time (your local time)' }),
      el('div', { class: 'closing-row' }, [
        closing,
        el('button', { type: 'submit', class: 'button button-small', testid: `set-closing-${id}`, text: 'Set closing time' }),
        survey.closes_at ? button('Remove closing time', `clear-closing-${id}`, () =>
          setStatus({ status: survey.status, closes_at: null }, `“${survey.title}” has no closing time now.`)) : null,
      ]),
    ]);
    closingForm.addEventListener('submit', (event) => {
      event.preventDefault();
      const utc = localInputToUtc(closing.value);
      if (!utc) {
        showStatus(itemStatus, 'error', 'Choose a date and time first.');
        closing.focus();
        return;
      }
      // A time already past would close the survey at once: said, not sent.
      if (new Date(utc) <= new Date()) {
        showStatus(itemStatus, 'error', `${describeClosing(utc)} has already passed: choose a later time, or use “Close now”.`);
        closing.focus();
        return;
      }
      // The survey keeps its status: a closing time never reopens a closed survey.
      const done = closed
        ? `“${survey.title}” stays closed; if you reopen it, it closes at ${describeClosing(utc)}.`
        : `“${survey.title}” closes at ${describeClosing(utc)}.`;
      setStatus({ status: survey.status, closes_at: utc }, done);
    });
    const stateText = closed ? 'Closed' : (survey.accepting === false ? 'Not accepting' : 'Open');
    return el('li', { class: 'card manage-item', testid: `survey-${id}`, dataset: { status: survey.status } }, [
      el('div', { class: 'manage-item-head' }, [
        el('h2', { text: survey.title || id }),
        el('span', { class: `status-badge status-${closed || survey.accepting === false ? 'closed' : 'open'}`, testid: `status-${id}`, text: stateText }),
      ]),
      el('dl', { class: 'facts manage-facts' }, [
        fact('Id', el('code', { text: id })),
        fact('Version', String(survey.version)),
        fact('Respondents (n)', el('span', { testid: `respondents-${id}`, text: formatInteger(survey.respondents) })),
        fact('Closing time', el('span', { testid: `closing-${id}`, text: survey.closes_at ? describeClosing(survey.closes_at) : 'none' })),
        fact('Results', survey.results === 'public' ? 'Public' : 'Admin only'),
        fact('Who can answer', survey.access === 'invitation' ? 'By invitation' : 'Anyone with the link'),
      ]),
      el('p', { class: 'manage-links' }, [
        el('a', { href: surveyPageUrl(id), testid: `link-survey-${id}`, text: 'Survey page' }),
        el('a', { href: `${surveyPageUrl(id)}?preview=1`, testid: `link-preview-${id}`, text: 'Preview as a respondent' }),
        el('a', { href: dashboardUrl(id), testid: `link-results-${id}`, text: 'Results' }),
      ]),
      el('div', { class: 'actions manage-actions' }, [
        toggle,
        el('a', { class: 'button button-small', href: `/create?correct=${encodeURIComponent(id)}`, testid: `correct-${id}`, text: 'Correct wording' }),
        el('a', { class: 'button button-small', href: `/create?from=${encodeURIComponent(id)}`, testid: `copy-${id}`, text: 'New version as a copy' }),
        button('Delete…', `delete-${id}`, () => dialog.open(survey), 'button-danger'),
      ]),
      closingForm,
      survey.access === 'invitation' ? invitationsSection(survey, itemStatus) : null,
      itemStatus,
    ]);
  }

  load();
}

// An invitation survey's codes: how many are used and unused, and a form
// that makes more (shown once, to copy: only their hashes are kept).
function invitationsSection(survey, itemStatus) {
  const id = survey.id;
  const counts = el('span', { testid: `invitation-counts-${id}`, text: 'counting…' });
  const count = el('input', {
    id: `more-codes-${id}`, type: 'number', min: '1', max: '10000', step: '1', value: '10', inputmode: 'numeric', testid: `more-codes-count-${id}`,
  });
  const output = el('textarea', { readonly: true, rows: '4', hidden: true, testid: `more-codes-list-${id}`, 'aria-label': 'New invitation codes' });
  const refresh = async () => {
    try {
      const response = await requestJson(surveyPath(id, '/invitations'), { headers: bearer(loadAdminToken()) });
      setText(counts, `${formatInteger(response.total)} (${formatInteger(response.used)} used, ${formatInteger(response.unused)} unused)`);
    } catch (error) {
      setText(counts, `not known (${error.message})`);
    }
  };
  const form = el('form', { class: 'closing-form', novalidate: true }, [
    el('label', { for: count.id, text: 'More invitation codes' }),
    el('div', { class: 'closing-row' }, [
      count,
      el('button', { type: 'submit', class: 'button button-small', testid: `more-codes-${id}`, text: 'Make codes' }),
    ]),
    output,
  ]);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const wanted = Number(count.value);
    if (!Number.isInteger(wanted) || wanted < 1 || wanted > 10000) {
      showStatus(itemStatus, 'error', 'Enter a whole number of codes from 1 to 10,000.');
      count.focus();
      return;
    }
    try {
      const response = await requestJson(surveyPath(id, '/invitations'), {
        method: 'POST', json: { count: wanted }, headers: bearer(loadAdminToken()),
      });
      output.value = response.codes.join('\n');
      output.hidden = false;
      showStatus(itemStatus, 'success',
        `${formatInteger(response.codes.length)} new codes for “${survey.title}”, below. Copy them now: they are not shown again.`);
      output.focus();
      output.select();
      await refresh();
    } catch (error) {
      showStatus(itemStatus, 'error', `No codes were made: ${error.message}`);
    }
  });
  refresh();
  return el('div', { class: 'manage-invitations', testid: `invitations-${id}` }, [
    el('p', {}, ['Invitation codes: ', counts]),
    form,
  ]);
}

function createSignInForm(onSignIn) {
  const input = el('input', { id: 'manage-token', type: 'password', autocomplete: 'off', spellcheck: 'false', testid: 'admin-token' });
  const message = el('p', { class: 'notice notice-warning', testid: 'admin-token-message' });
  const form = el('form', { class: 'card admin-form', hidden: true, novalidate: true, testid: 'admin-token-form' }, [
    el('h2', { text: 'Sign in' }),
    message,
    el('div', { class: 'field field-inline' }, [
      el('label', { for: input.id, text: 'Admin token' }),
      input,
      el('button', { type: 'submit', class: 'button button-primary', testid: 'admin-token-submit', text: 'Sign in' }),
    ]),
    el('p', { class: 'hint', text: 'The server printed the token when it first started. It is kept only for this browser tab.' }),
  ]);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const token = input.value.trim();
    if (!token) {
      setText(message, 'Enter the admin token.');
      input.focus();
      return;
    }
    saveAdminToken(token);
    onSignIn();
  });
  return {
    element: form,
    show(text) {
      setText(message, text);
      input.value = '';
      form.hidden = false;
      input.focus();
    },
    hide() {
      form.hidden = true;
    },
  };
}

function fact(term, value) {
  return el('div', {}, [el('dt', { text: term }), el('dd', {}, [value])]);
}

function button(text, testid, onClick, extraClass = '') {
  const node = el('button', { type: 'button', class: `button button-small ${extraClass}`.trim(), testid, text });
  node.addEventListener('click', onClick);
  return node;
}

function showStatus(node, kind, message) {
  node.className = `notice notice-${kind}`;
  setText(node, message);
  node.hidden = false;
}

start();
