// Once prepared, a report is fixed: preparing several and picking one would
// weaken the randomisation. The prepared report (never the true answers) is
// kept in localStorage, keyed by survey id and version, so that reloading the
// page or opening it in a second tab shows the same report instead of
// randomising again. Once sent, the device remembers that (and when) the
// survey was answered, so a return shows that instead of a fresh form. This
// is a courtesy of this device, not a guarantee: clearing the site's storage
// forgets it (see web/README.md). In a preview (?preview=1) nothing is stored.

let disabled = false;

// Turns the store off for this page (a preview stores nothing).
export function disableStore() {
  disabled = true;
}

function key(survey) {
  return `deniable.preparedReport.${survey.id}.v${survey.version}`;
}

function answeredKey(survey) {
  return `deniable.answered.${survey.id}.v${survey.version}`;
}

// True when a storage event's key is this survey's prepared report or answered mark.
export function isPreparedKey(survey, storageKey) {
  return storageKey === key(survey);
}

export function isAnsweredKey(survey, storageKey) {
  return storageKey === answeredKey(survey);
}

export function loadPreparedReport(survey) {
  if (disabled) return null;
  try {
    const text = localStorage.getItem(key(survey)) ?? sessionStorage.getItem(key(survey));
    if (!text) return null;
    const report = JSON.parse(text);
    if (report?.survey !== survey.id || report?.version !== survey.version) return null;
    return text;
  } catch {
    return null;
  }
}

export function savePreparedReport(survey, reportText) {
  if (disabled) return;
  try {
    localStorage.setItem(key(survey), reportText);
  } catch {
    // storage disabled: the report is still fixed for the life of the page
  }
}

export function forgetPreparedReport(survey) {
  if (disabled) return;
  try {
    localStorage.removeItem(key(survey));
    sessionStorage.removeItem(key(survey));
  } catch {
    // nothing stored
  }
}

// Remembers that the survey was answered on this device (the date only).
export function markAnswered(survey, date = new Date()) {
  if (disabled) return;
  try {
    localStorage.setItem(answeredKey(survey), JSON.stringify({ sent_at: date.toISOString() }));
  } catch {
    // storage disabled: nothing remembered
  }
}

// The Date the survey was answered on this device, or null.
export function answeredOn(survey) {
  if (disabled) return null;
  try {
    const stored = JSON.parse(localStorage.getItem(answeredKey(survey)) ?? 'null');
    const date = stored?.sent_at ? new Date(stored.sent_at) : null;
    return date && !Number.isNaN(date.getTime()) ? date : null;
  } catch {
    return null;
  }
}

// An invitation survey's token, kept beside the prepared report: the pending
// issuance {state: "pending", code, input, blind, blinded_element}, stored
// BEFORE the code is sent (a dropped answer is then retried with the same
// blinded element), then the token {state: "issued", input, output,
// public_key} once it is verified (the code and the blind are dropped). Keyed
// by survey id alone: the key, and so the token, is the survey's, whatever
// its version. Losing it (cleared site data) loses the invitation: the page
// says so before the respondent starts.
function invitationKey(survey) {
  return `deniable.invitation.${survey.id}`;
}

// {pending, token}: each null when not stored.
export function loadInvitation(survey) {
  if (disabled) return { pending: null, token: null };
  try {
    const stored = JSON.parse(localStorage.getItem(invitationKey(survey)) ?? 'null');
    if (stored?.state === 'issued' && typeof stored.input === 'string' && typeof stored.output === 'string') {
      return { pending: null, token: { input: stored.input, output: stored.output, public_key: stored.public_key ?? null } };
    }
    if (stored?.state === 'pending' && typeof stored.blinded_element === 'string') {
      const { code, input, blind, blinded_element: blinded } = stored;
      return { pending: { code, input, blind, blinded_element: blinded }, token: null };
    }
  } catch {
    // unreadable: nothing stored
  }
  return { pending: null, token: null };
}

export function savePendingIssuance(survey, { code, input, blind, blinded_element: blinded }) {
  if (disabled) return;
  try {
    localStorage.setItem(invitationKey(survey), JSON.stringify({ state: 'pending', code, input, blind, blinded_element: blinded }));
  } catch {
    // storage off: the page keeps the pending issuance in memory (a retry on this page still works)
  }
}

export function saveToken(survey, { input, output, public_key: publicKey = null }) {
  if (disabled) return;
  try {
    localStorage.setItem(invitationKey(survey), JSON.stringify({ state: 'issued', input, output, public_key: publicKey }));
  } catch {
    // storage full or off: the token lives as long as the page
  }
}

export function forgetInvitation(survey) {
  if (disabled) return;
  try {
    localStorage.removeItem(invitationKey(survey));
  } catch {
    // nothing stored
  }
}
