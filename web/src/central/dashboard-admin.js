// The admin's tools on a question answered in confidence: the release form
// (method, ε, the method's settings under "Advanced", and when: now or once
// the question has N answers), which posts the request with the stored admin
// token and shows the server's refusal word for word; cancelling a scheduled
// release; and, only when the definition lets admins see them, the exact
// counts, fetched on request and labelled as not private.
import { bearer, requestJson, surveyPath } from '../shared/api.js';
import { loadAdminToken } from '../shared/admin-token.js';
import { el, replaceChildren, setText } from '../shared/dom.js';
import { scrollBox } from '../shared/scroll-box.js';
import { formatInteger, formatNumber } from '../shared/format.js';
import { attachNumberMessage, definitionNumber, numberInput, parseWholeNumber } from '../shared/number-input.js';
import { RELEASE_METHODS } from './dashboard-release.js';

const DEFAULT_METHOD = 'sreb_gca';
// The server's defaults for the optional settings.
const DEFAULTS = { rho: '0.5', ratio: '0.85', eta: '0.35' };

function questionPath(surveyId, questionId, suffix) {
  return surveyPath(surveyId, `/questions/${encodeURIComponent(questionId)}${suffix}`);
}

// The most answers a release can be scheduled at (the server's limit).
const MAX_AT_RESPONDENTS = 1e9;

// ε offered for the next release: half the budget, at most what is left.
function suggestedEpsilon(ledger) {
  if (!ledger || !(ledger.left > 0)) return '';
  const value = Math.min(ledger.left, ledger.budget / 2);
  return String(Math.round(value * 1000) / 1000 || ledger.left);
}

// "0.5 of 2 spent, 1.5 left." (what is reserved too, when anything is).
function budgetText({ budget, spent, reserved, left }) {
  const held = reserved > 0 ? `, ${formatNumber(reserved)} reserved` : '';
  return `${formatNumber(spent)} of ${formatNumber(budget)} spent${held}, ${formatNumber(left)} left.`;
}

// Cancels a scheduled release (admin token); resolves to the budget fields.
export function cancelScheduledRelease({ surveyId, questionId, scheduledId }) {
  return requestJson(questionPath(surveyId, questionId, `/releases/${encodeURIComponent(scheduledId)}/cancel`), {
    method: 'POST', headers: bearer(loadAdminToken()),
  });
}

// `onReleased(response)`: after a release was stored or scheduled (the page
// refreshes); `onUnauthorised(message)`: the token was refused.
export function createReleaseForm({ surveyId, questionId, onReleased, onUnauthorised }) {
  const fieldId = (name) => `release-${questionId}-${name}`;
  const method = el('select', { id: fieldId('method'), testid: `release-method-${questionId}` },
    RELEASE_METHODS.map((entry) => el('option', { value: entry.name, text: entry.label, selected: entry.name === DEFAULT_METHOD })));
  const methodNote = el('p', { class: 'hint', id: fieldId('method-note'), testid: `release-method-note-${questionId}` });
  method.setAttribute('aria-describedby', methodNote.id);
  const epsilon = numberInput({ id: fieldId('epsilon'), testid: `release-epsilon-${questionId}` });
  const epsilonHint = el('p', { class: 'hint', id: fieldId('epsilon-hint'), testid: `release-epsilon-hint-${questionId}` });
  epsilon.setAttribute('aria-describedby', epsilonHint.id);
  const epsilonMessage = attachNumberMessage(epsilon);
  const settings = Object.fromEntries(Object.entries(DEFAULTS).map(([name, value]) =>
    [name, numberInput({ id: fieldId(name), value, testid: `release-${name}-${questionId}` })]));
  const setting = (name, label, hint) => {
    const message = attachNumberMessage(settings[name]);
    const hintNode = el('p', { class: 'hint', id: fieldId(`${name}-hint`), text: hint });
    settings[name].setAttribute('aria-describedby', `${hintNode.id} ${settings[name].getAttribute('aria-describedby') ?? ''}`.trim());
    return el('div', { class: 'field' }, [el('label', { for: settings[name].id, text: label }), settings[name], message.element, hintNode]);
  };
  const rhoField = setting('rho', 'ρ (share of ε for finding groups)', 'Between 0 and 1; default 0.5.');
  const ratioField = setting('ratio', 'Ratio', 'AHP’s share of ε for the grouping step; default 0.85.');
  const etaField = setting('eta', 'η (grouping threshold)', 'AHP’s threshold for merging bins; default 0.35.');
  const noSettings = el('p', { class: 'hint', text: 'DP base has no further settings.' });
  const advanced = el('details', { class: 'release-advanced', testid: `release-advanced-${questionId}` }, [
    el('summary', { text: 'Advanced settings' }),
    el('div', { class: 'field-row' }, [rhoField, ratioField, etaField]),
    noSettings,
  ]);
  // When: now, or when the question has N answers (more than it has now).
  let answers = 0;
  const whenRadio = (value, label, checked) => {
    const input = el('input', { type: 'radio', id: fieldId(`when-${value}`), name: fieldId('when'), value, checked, testid: `release-when-${value}-${questionId}` });
    return { input, label: el('label', { class: 'choice choice-small', for: input.id }, [input, el('span', { text: label })]) };
  };
  const whenNow = whenRadio('now', 'Now', true);
  const whenLater = whenRadio('later', 'When the question has N answers', false);
  const at = numberInput({ id: fieldId('at'), whole: true, testid: `release-at-${questionId}` });
  const atHint = el('p', { class: 'hint', id: fieldId('at-hint'), testid: `release-at-hint-${questionId}` });
  at.setAttribute('aria-describedby', atHint.id);
  const atMessage = attachNumberMessage(at, {
    check(text) {
      const parsed = parseWholeNumber(text);
      if (!parsed.ok) return parsed;
      if (parsed.value <= answers) {
        return { ok: false, message: `N must be more than the ${formatInteger(answers)} answers the question has now (at ${formatInteger(answers)} or fewer, the release would be made at once).` };
      }
      if (parsed.value > MAX_AT_RESPONDENTS) return { ok: false, message: `N can be at most ${formatInteger(MAX_AT_RESPONDENTS)}.` };
      return parsed;
    },
  });
  const atField = el('div', { class: 'field release-at', hidden: true }, [
    el('label', { for: at.id, text: 'N (answers)' }), at, atMessage.element, atHint,
  ]);
  const when = el('fieldset', { class: 'release-when', testid: `release-when-${questionId}` }, [
    el('legend', { text: 'When' }),
    el('div', { class: 'choices release-when-choices' }, [whenNow.label, whenLater.label]),
    atField,
  ]);
  const submit = el('button', { type: 'submit', class: 'button button-primary', testid: `release-submit-${questionId}`, text: 'Release now' });
  const error = el('p', { class: 'notice notice-error', role: 'alert', testid: `release-error-${questionId}`, hidden: true });
  // A release spends budget for good: the page says what it will spend and
  // asks once more before sending.
  const confirmText = el('p', { testid: `release-confirm-text-${questionId}` });
  const confirmButton = el('button', { type: 'button', class: 'button button-primary', testid: `release-confirm-${questionId}`, text: 'Yes, spend it' });
  const cancelButton = el('button', { type: 'button', class: 'button', testid: `release-confirm-cancel-${questionId}`, text: 'Not now' });
  const confirmBox = el('div', {
    class: 'notice notice-warning release-confirm', role: 'group', 'aria-label': 'Confirm the release', hidden: true, testid: `release-confirm-box-${questionId}`,
  }, [confirmText, el('div', { class: 'actions' }, [confirmButton, cancelButton])]);
  const status = el('p', { class: 'notice notice-success', role: 'status', testid: `release-status-${questionId}`, hidden: true });
  const form = el('form', { class: 'release-form', novalidate: true, testid: `release-form-${questionId}`, 'aria-label': 'Make a release' }, [
    el('h3', { class: 'chart-title', text: 'Make a release (admin)' }),
    el('p', { class: 'hint', text: 'A release publishes noisy counts for everyone who can see these results. Each release spends its ε from the question’s budget, for good: releases add up and cannot exceed it.' }),
    el('div', { class: 'field-row' }, [
      el('div', { class: 'field' }, [el('label', { for: method.id, text: 'Method' }), method, methodNote]),
      el('div', { class: 'field' }, [el('label', { for: epsilon.id, text: 'ε for this release' }), epsilon, epsilonMessage.element, epsilonHint]),
    ]),
    advanced,
    when,
    el('div', { class: 'actions' }, [submit]),
    confirmBox,
    error,
    status,
  ]);

  let edited = false;
  let ledger = null;
  epsilon.addEventListener('input', () => { edited = true; });
  const syncMethod = () => {
    const entry = RELEASE_METHODS.find((candidate) => candidate.name === method.value);
    setText(methodNote, entry?.explanation ?? '');
    rhoField.hidden = method.value !== 'sreb_gca';
    ratioField.hidden = method.value !== 'ahp';
    etaField.hidden = method.value !== 'ahp';
    noSettings.hidden = method.value !== 'dp_base';
  };
  method.addEventListener('change', syncMethod);
  syncMethod();
  const later = () => whenLater.input.checked;
  const syncWhen = () => {
    atField.hidden = !later();
    at.disabled = !later();
    if (!later()) atMessage.update();  // clears its message; an empty N is asked for only when sent
    setText(submit, later() ? 'Schedule release' : 'Release now');
  };
  for (const radio of [whenNow.input, whenLater.input]) radio.addEventListener('change', syncWhen);
  syncWhen();

  const request = () => {
    const body = { method: method.value, epsilon: definitionNumber(epsilon.value) };
    if (method.value === 'sreb_gca') body.rho = definitionNumber(settings.rho.value);
    if (method.value === 'ahp') {
      body.ratio = definitionNumber(settings.ratio.value);
      body.eta = definitionNumber(settings.eta.value);
    }
    if (later()) body.at_respondents = atMessage.check().value;
    return body;
  };

  let busy = false;
  const hideConfirm = () => { confirmBox.hidden = true; };
  // Any change to the form asks again: the confirmation is for what it said.
  form.addEventListener('input', hideConfirm);
  form.addEventListener('change', hideConfirm);
  cancelButton.addEventListener('click', () => {
    hideConfirm();
    submit.focus();
  });
  confirmButton.addEventListener('click', () => send());
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (busy) return;
    // A count the question already has would make the release at once: asked again, never sent.
    if (later() && !atMessage.check().ok) {
      atMessage.update();
      at.focus();
      return;
    }
    error.hidden = true;
    status.hidden = true;
    // The budget is checked here first (the server checks it again): an ε
    // above what is left is said, never sent.
    const wanted = definitionNumber(epsilon.value);
    if (typeof wanted === 'number' && ledger && wanted > ledger.left * (1 + 1e-9)) {
      const reserved = ledger.reserved > 0 ? `, ${formatNumber(ledger.reserved)} reserved by scheduled releases` : '';
      setText(error, `ε ${formatNumber(wanted)} is more than the ${formatNumber(ledger.left)} left of this question’s budget of ` +
        `${formatNumber(ledger.budget)} (${formatNumber(ledger.spent)} spent${reserved}): choose a smaller ε. Nothing was sent.`);
      error.hidden = false;
      epsilon.focus();
      return;
    }
    const after = typeof wanted === 'number' && ledger ? ` ${formatNumber(Math.max(0, ledger.left - wanted))} will be left.` : '';
    setText(confirmText, later()
      ? `Schedule this release? It reserves ε ${formatNumber(wanted)} of this question’s budget now, for good unless cancelled.${after}`
      : `Release now? It publishes noisy counts and spends ε ${formatNumber(wanted)} of this question’s budget for good.${after}`);
    confirmBox.hidden = false;
    confirmButton.focus();
  });

  async function send() {
    if (busy) return;
    hideConfirm();
    busy = true;
    submit.disabled = true;
    error.hidden = true;
    status.hidden = true;
    try {
      const response = await requestJson(questionPath(surveyId, questionId, '/releases'), {
        method: 'POST', json: request(), headers: bearer(loadAdminToken()),
      });
      const { release, scheduled } = response;
      if (scheduled) {
        setText(status, `Scheduled ${scheduled.id}: ${scheduled.request.method}, ε ${formatNumber(scheduled.request.epsilon)}, ` +
          `when ${formatInteger(scheduled.at_respondents)} answers are in (ε reserved now): ${budgetText(response)}`);
        at.value = '';
      } else {
        setText(status, `Released ${release.id} (${release.method}, ε = ${formatNumber(release.epsilon)}): ${budgetText(response)}`);
      }
      status.hidden = false;
      edited = false;
      ledger = { budget: response.budget, spent: response.spent, reserved: response.reserved, left: response.left };
      epsilon.value = suggestedEpsilon(ledger);
      epsilonMessage.update();
      onReleased(response);
    } catch (failure) {
      // The server's message, word for word (it says what is spent and left, or which field is wrong).
      setText(error, failure.message);
      error.hidden = false;
      if (failure.status === 401) onUnauthorised(failure.message);
    } finally {
      busy = false;
      submit.disabled = false;
      // The confirm button is gone: focus goes back to the form's button, next to the message.
      if (!form.contains(document.activeElement) || confirmBox.contains(document.activeElement)) submit.focus();
    }
  }

  return {
    element: form,
    focus: () => method.focus(),
    // The question's ledger as published and its answers so far (`n`); the
    // suggested ε follows the ledger until the admin types one.
    update(nextLedger, n) {
      ledger = nextLedger;
      answers = n ?? 0;
      if (!edited) {
        const suggestion = suggestedEpsilon(ledger);
        if (epsilon.value !== suggestion) epsilon.value = suggestion;
      }
      const reserved = ledger.reserved > 0 ? ` (${formatNumber(ledger.reserved)} is reserved by scheduled releases)` : '';
      setText(epsilonHint, ledger.left > 0
        ? `At most ${formatNumber(ledger.left)} is left of the budget of ${formatNumber(ledger.budget)}${reserved}.`
        : ledger.reserved > 0
          ? `Nothing is left of the budget of ${formatNumber(ledger.budget)}: ${formatNumber(ledger.spent)} is spent${reserved}; cancelling a scheduled release frees its ε.`
          : `The whole budget of ${formatNumber(ledger.budget)} is spent: no further release can be made.`);
      at.dataset.min = String(answers + 1);
      setText(atHint, `At least ${formatInteger(answers + 1)}: the question has ${formatInteger(answers)} answers now. ` +
        'The ε is reserved at once, and the server makes the release when the N-th answer is stored.');
    },
    clearMessages() {
      error.hidden = true;
      status.hidden = true;
    },
    // A refusal from elsewhere on the panel (cancelling), word for word.
    showError(message) {
      setText(error, message);
      error.hidden = false;
    },
    showCancelled(scheduled, response) {
      setText(status, `Cancelled ${scheduled.id}: its ε ${formatNumber(scheduled.request?.epsilon)} is no longer reserved. ${budgetText(response)}`);
      status.hidden = false;
    },
  };
}

// The exact counts (not private), for the admin, when the definition allows
// them. Fetched only when asked for, never by the poll, and shown under a
// warning; hidden again with the same button.
export function createExactCounts({ surveyId, questionId, onUnauthorised }) {
  const button = el('button', {
    type: 'button', class: 'button button-danger', testid: `exact-counts-button-${questionId}`,
    'aria-expanded': 'false', 'aria-controls': `exact-counts-${questionId}`, text: 'Show exact counts (not private)',
  });
  const error = el('p', { class: 'notice notice-error', role: 'alert', testid: `exact-counts-error-${questionId}`, hidden: true });
  const box = el('div', { class: 'exact-counts', id: `exact-counts-${questionId}`, testid: `exact-counts-${questionId}`, hidden: true });
  let shown = false;
  const hide = () => {
    shown = false;
    box.hidden = true;
    replaceChildren(box, []);
    setText(button, 'Show exact counts (not private)');
    button.setAttribute('aria-expanded', 'false');
  };
  button.addEventListener('click', async () => {
    if (shown) {
      hide();
      return;
    }
    error.hidden = true;
    button.disabled = true;
    try {
      const counts = await requestJson(questionPath(surveyId, questionId, '/counts'), { headers: bearer(loadAdminToken()) });
      replaceChildren(box, renderCounts(questionId, counts));
      box.hidden = false;
      shown = true;
      setText(button, 'Hide exact counts');
      button.setAttribute('aria-expanded', 'true');
    } catch (failure) {
      setText(error, failure.message);
      error.hidden = false;
      if (failure.status === 401) onUnauthorised(failure.message);
    } finally {
      button.disabled = false;
    }
  });
  return {
    element: el('div', { class: 'exact-counts-tools' }, [el('div', { class: 'actions' }, [button]), error, box]),
  };
}

function renderCounts(questionId, counts) {
  const note = counts.note ?? 'exact counts, not private';
  return [
    el('h3', { text: 'Exact counts — NOT PRIVATE' }),
    el('p', { class: 'notice notice-warning', testid: `exact-counts-note-${questionId}`, text: `${note.charAt(0).toUpperCase()}${note.slice(1)}.` }),
    el('p', { text: `Fetched ${new Date().toLocaleTimeString()} for ${formatInteger(counts.n)} respondents. Only the admin sees these; never publish them.` }),
    scrollBox(el('table', { class: 'results-table', testid: `exact-counts-table-${questionId}`, 'aria-label': 'Exact counts, not private' }, [
      el('thead', {}, [el('tr', {}, [el('th', { scope: 'col', text: 'Bin' }), el('th', { scope: 'col', text: 'Exact count (not private)' })])]),
      el('tbody', {}, counts.bins.map((bin, index) => el('tr', {}, [
        el('th', { scope: 'row', class: 'bin-label', text: bin.label }),
        el('td', { class: 'number', testid: `exact-count-${questionId}-${index}`, text: formatInteger(bin.count) }),
      ]))),
    ])),
  ];
}
