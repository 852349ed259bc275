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
