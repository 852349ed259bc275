import { el, setText } from '../shared/dom.js';
import { requestAnalysis } from './analysis-request.js';

// Runs one panel's analysis and says what is happening: "Computing…" while
// the server works, "busy, retrying in N s" when it asks to wait, the
// server's message when it refuses. A new run cancels the one before it.
// `render(document, spec)` draws the answer; `current()` is what is shown;
// `clearStale()` (optional) takes the last answer off the screen when a new
// run starts, so that its numbers never stand under the new choice.
export function createAnalysisRunner({ surveyId, testid, interval, render, clearStale = () => {} }) {
  const status = el('p', { class: 'hint analysis-status', role: 'status', 'aria-live': 'polite', testid: `${testid}-status` });
  const error = el('p', { class: 'notice notice-error', role: 'alert', testid: `${testid}-error`, hidden: true });
  let controller = null;
  let shown = null;

  function say(text) {
    setText(status, text);
  }

  async function run(spec) {
    controller?.abort();
    const own = new AbortController();
    controller = own;
    error.hidden = true;
    shown = null;
    clearStale();
    say('Computing…');
    status.dataset.state = 'computing';
    try {
      const document = await requestAnalysis(surveyId, spec, {
        interval: interval(),
        signal: own.signal,
        onBusy: (seconds) => say(`The server is busy; retrying in ${seconds} s…`),
      });
      if (controller !== own) return;
      shown = { document, spec };
      say('');
      status.dataset.state = 'done';
      render(document, spec);
    } catch (failure) {
      if (failure.name === 'AbortError' || controller !== own) return;
      say('');
      status.dataset.state = 'failed';
      setText(error, busyOrPlain(failure));
      error.hidden = false;
    }
  }

  return {
    elements: [status, error],
    run,
    // Nothing chosen: no request, nothing shown.
    clear() {
      controller?.abort();
      controller = null;
      shown = null;
      say('');
      error.hidden = true;
      delete status.dataset.state;
    },
    current: () => shown,
  };
}

function busyOrPlain(failure) {
  if (failure.status === 429 || failure.status === 503) {
    return `The server is still busy (${failure.message}). Choose again in a minute.`;
  }
  if (failure.status === 401 || failure.status === 403) return `Not allowed: ${failure.message} Sign in with the admin token above.`;
  return `The analysis failed: ${failure.message}`;
}
