import { ApiError, bearer, surveyPath } from '../shared/api.js';
import { loadAdminToken } from '../shared/admin-token.js';

// One analysis from GET /api/surveys/{id}/analysis (server/api/analysis_handler.cc):
// a breakdown ({by, question}), a cross-tab ({cross: [ids]}) or a regression
// ({regress, on: [ids]}) or the open answers' combinations ({combinations: "open"}), with the page's interval choice. The server computes
// from the stored reports and may be busy (429 or 503 with Retry-After): then
// this waits as told and asks again, saying so through onBusy(seconds, message).

const MAX_BUSY_RETRIES = 6;
const DEFAULT_RETRY_SECONDS = 5;

// The query string of a spec (ids are letters, digits, - and _: no escaping
// needed, but escaped anyway; the commas stay literal).
export function analysisQuery(spec, interval) {
  const ids = (list) => list.map(encodeURIComponent).join(',');
  const parts = [];
  if (spec.by !== undefined) parts.push(`by=${encodeURIComponent(spec.by)}`, `question=${encodeURIComponent(spec.question)}`);
  if (spec.cross !== undefined) parts.push(`cross=${ids(spec.cross)}`);
  if (spec.regress !== undefined) parts.push(`regress=${encodeURIComponent(spec.regress)}`, `on=${ids(spec.on)}`);
  if (spec.combinations !== undefined) parts.push(`combinations=${encodeURIComponent(spec.combinations)}`);
  if (interval && interval !== 'population') parts.push(`interval=${encodeURIComponent(interval)}`);
  return `?${parts.join('&')}`;
}

export async function requestAnalysis(surveyId, spec, { interval, signal, onBusy = () => {} } = {}) {
  const path = surveyPath(surveyId, `/analysis${analysisQuery(spec, interval)}`);
  for (let attempt = 0; ; attempt += 1) {
    const response = await send(path, signal);
    const document = await readJson(response);
    if (response.ok) return document;
    const message = document?.error?.message ?? `The server answered ${response.status}`;
    const busy = (response.status === 429 || response.status === 503) && response.headers.has('Retry-After');
    if (!busy || attempt >= MAX_BUSY_RETRIES) throw new ApiError(message, response.status, document?.error?.code ?? '');
    const seconds = retrySeconds(response.headers.get('Retry-After'));
    onBusy(seconds, message);
    await wait(seconds * 1000, signal);
  }
}

async function send(path, signal) {
  try {
    return await fetch(path, { headers: { Accept: 'application/json', ...bearer(loadAdminToken()) }, signal, cache: 'no-store' });
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new ApiError(`Could not reach the server (${error.message}). Check your connection and try again.`, 0, 'network');
  }
}

async function readJson(response) {
  try {
    return JSON.parse(await response.text());
  } catch {
    return null;
  }
}

// Retry-After in seconds (a date form is rare from this server: the default then).
function retrySeconds(header) {
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 && seconds <= 120 ? seconds : DEFAULT_RETRY_SECONDS;
}

function wait(ms, signal) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new DOMException('aborted', 'AbortError'));
    }, { once: true });
  });
}
