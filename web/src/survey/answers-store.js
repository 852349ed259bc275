// Save and resume: the answers given so far, kept in localStorage on this
// device only, so that a long survey can be left and taken up again. Keyed by
// survey id and version (another version's questions differ: its answers are
// not offered). They are the true answers: kept only until the report is
// prepared (then the prepared report, prepared-report-store.js, is what is
// kept), cleared by the respondent's "Clear them", and never sent anywhere:
// nothing here is read by the code that sends. In a preview nothing is stored.
//
// What is kept is the state of the questions' controls (resume.js), {name,
// value, checked}, whatever the kind, so every kind is saved alike. Answers
// left for longer than KEEP_DAYS are dropped when the page next opens: a
// shared device should not hold someone's abandoned answers for ever.

export const KEEP_DAYS = 30;
const KEEP_MS = KEEP_DAYS * 24 * 60 * 60 * 1000;

let disabled = false;

export function disableAnswersStore() {
  disabled = true;
}

function key(survey) {
  return `deniable.answers.${survey.id}.v${survey.version}`;
}

// The controls' state kept for this survey and version, or null (and
// nothing kept any more, when it was saved more than KEEP_DAYS ago).
export function loadAnswers(survey, now = Date.now()) {
  if (disabled) return null;
  try {
    const stored = JSON.parse(localStorage.getItem(key(survey)) ?? 'null');
    if (stored?.survey !== survey.id || stored?.version !== survey.version || !Array.isArray(stored.controls)) return null;
    if (!(now - stored.saved_at <= KEEP_MS)) {
      localStorage.removeItem(key(survey));
      return null;
    }
    return stored.controls.length > 0 ? stored.controls : null;
  } catch {
    return null;
  }
}

// True when kept (false in a preview, or when the browser's storage is off or full).
export function saveAnswers(survey, controls, now = Date.now()) {
  if (disabled) return false;
  try {
    if (controls.length === 0) {
      localStorage.removeItem(key(survey));
      return false;
    }
    localStorage.setItem(key(survey), JSON.stringify({ survey: survey.id, version: survey.version, saved_at: now, controls }));
    return true;
  } catch {
    return false;
  }
}

export function forgetAnswers(survey) {
  if (disabled) return;
  try {
    localStorage.removeItem(key(survey));
  } catch {
    // nothing stored
  }
}
