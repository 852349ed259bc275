// Pages are served at /s/{id} and /results/{id}; ?id= also works (handy for
// the Vite dev server and for links built elsewhere).
export function surveyIdFromLocation(pathPrefix, location = window.location) {
  const fromQuery = new URLSearchParams(location.search).get('id');
  if (fromQuery) return fromQuery;
  if (!location.pathname.startsWith(pathPrefix)) return null;
  const rest = location.pathname.slice(pathPrefix.length).replace(/\/+$/, '');
  if (!rest || rest.includes('/')) return null;
  try {
    return decodeURIComponent(rest);
  } catch {
    return null;  // malformed %-escape
  }
}

export function queryParameter(name, location = window.location) {
  return new URLSearchParams(location.search).get(name);
}

export function surveyPageUrl(surveyId, code) {
  const url = new URL(`/s/${encodeURIComponent(surveyId)}`, window.location.origin);
  if (code) url.searchParams.set('code', code);
  return url.href;
}

export function dashboardUrl(surveyId) {
  return new URL(`/results/${encodeURIComponent(surveyId)}`, window.location.origin).href;
}
