// Once prepared, a report is fixed: preparing several and picking one would
// weaken the randomisation. The prepared report (never the true answers) is
// kept in sessionStorage so that reloading the tab shows the same report
// instead of randomising again.

function key(survey) {
  return `deniable.preparedReport.${survey.id}.v${survey.version}`;
}

export function loadPreparedReport(survey) {
  try {
    const text = sessionStorage.getItem(key(survey));
    if (!text) return null;
    const report = JSON.parse(text);
    if (report?.survey !== survey.id || report?.version !== survey.version) return null;
    return text;
  } catch {
    return null;
  }
}

export function savePreparedReport(survey, reportText) {
  try {
    sessionStorage.setItem(key(survey), reportText);
  } catch {
    // storage disabled: the report is still fixed for the life of the page
  }
}

export function forgetPreparedReport(survey) {
  try {
    sessionStorage.removeItem(key(survey));
  } catch {
    // nothing stored
  }
}
