// Calls to the Deniable HTTP API. Errors come back as
// {"error":{"message","code"}}; the message (which names the field and the
// problem) is what the pages show the user.

export class ApiError extends Error {
  constructor(message, status, code) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

export function surveyPath(surveyId, suffix = '') {
  return `/api/surveys/${encodeURIComponent(surveyId)}${suffix}`;
}

export function bearer(token) {
  return token ? { Authorization: `Bearer ${token}` } : {};
}

// `json` is serialised here; `bodyText` is sent byte for byte (the survey page
// posts exactly the text it showed the respondent).
export async function requestJson(path, { method = 'GET', json, bodyText, headers = {}, signal } = {}) {
  const body = bodyText ?? (json === undefined ? undefined : JSON.stringify(json));
  const allHeaders = { Accept: 'application/json', ...headers };
  if (body !== undefined) allHeaders['Content-Type'] = 'application/json';
  const response = await send(path, { method, headers: allHeaders, body, signal, cache: 'no-store' });
  const document = await readJson(response);
  if (!response.ok) throw errorFrom(response, document);
  return document;
}

export async function requestBlob(path, { headers = {} } = {}) {
  const response = await send(path, { headers, cache: 'no-store' });
  if (!response.ok) throw errorFrom(response, await readJson(response));
  return response.blob();
}

async function send(path, init) {
  try {
    return await fetch(path, init);
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new ApiError(`Could not reach the server (${error.message}). Check your connection and try again.`, 0, 'network');
  }
}

async function readJson(response) {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;  // not JSON (e.g. a proxy's HTML error page); the status explains it
  }
}

function errorFrom(response, document) {
  const message = document?.error?.message ?? `The server answered ${response.status} ${response.statusText}`.trim();
  return new ApiError(message, response.status, document?.error?.code ?? '');
}
