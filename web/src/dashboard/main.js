import { bearer, requestJson, surveyPath } from '../shared/api.js';
import { el, replaceChildren, setText } from '../shared/dom.js';
import { showFatalError } from '../shared/fatal.js';
import { formatEpsilon, formatInteger } from '../shared/format.js';
import { surveyIdFromLocation } from '../shared/location.js';
import { loadAdminToken } from '../shared/admin-token.js';
import { createAdminTokenForm } from './admin-token-form.js';
import { createExports } from './exports.js';
import { createKindControls } from './kind-controls.js';
import { dashboardKind } from './kinds.js';
import { createPoller } from './poller.js';

// The results dashboard: polls the results document every 2 seconds and
// updates the numbers, tables and charts in place.

const POLL_INTERVAL_MS = 2000;
const main = document.getElementById('dashboard-page');

function start() {
  const surveyId = surveyIdFromLocation('/results/');
  if (!surveyId) {
    showFatalError(main, 'No survey selected', 'The address should look like /results/<survey id>.');
    return;
  }
  const view = createView(surveyId);
  let stopped = false;
  const poller = createPoller(async () => {
    if (stopped || view.waitingForToken) return;
    stopped = await refresh(surveyId, view);
  }, POLL_INTERVAL_MS);
  view.onToken(() => {
    view.waitingForToken = false;
    poller.runNow();
  });
  view.onQueryChange(() => poller.runNow());
  poller.runNow();
}

// Fetches the results once; returns true when polling should stop.
async function refresh(surveyId, view) {
  const token = loadAdminToken();
  try {
    const results = await requestJson(surveyPath(surveyId, `/results${view.queryString()}`), { headers: bearer(token) });
    view.show(results);
    return false;
  } catch (error) {
    if (error.status === 401 || error.status === 403) {
      view.askForToken(error.message);
      return false;
    }
    if (error.status === 400 && view.queryString()) {
      view.rejectQuery(error.message);
      return false;
    }
    if (error.status === 404) {
      showFatalError(main, 'Survey not found', error.message);
      return true;
    }
    view.showPollError(`Could not refresh the results: ${error.message} Retrying every ${POLL_INTERVAL_MS / 1000} s.`);
    return false;
  }
}

function createView(surveyId) {
  let results = null;
  let panels = null;
  let structureKey = '';
  let tokenCallback = () => {};
  let queryCallback = () => {};
  const controls = createKindControls(() => queryCallback());
  const title = el('h1', { testid: 'survey-title', text: `Results: ${surveyId}` });
  const respondents = el('strong', { testid: 'respondents', text: '—' });
  const totalEpsilon = el('strong', { class: 'nowrap', testid: 'total-epsilon', text: '—' });
  const totalNote = el('span', { class: 'hint', testid: 'total-epsilon-note' });
  const updated = el('span', { class: 'hint', testid: 'last-updated' });
  const pollStatus = el('p', { class: 'notice notice-error', role: 'status', testid: 'poll-status', hidden: true });
  const questions = el('div', { class: 'question-results' });
  const tokenForm = createAdminTokenForm(() => tokenCallback());
  const summary = el('section', { class: 'summary', hidden: true, testid: 'summary' }, [
    el('p', {}, ['Respondents: ', respondents]),
    el('p', {}, ['Total privacy budget per respondent: ', totalEpsilon, ' ', totalNote]),
    createExports(surveyId, () => results, (message) => showError(message), () => controls.queryString()),
    el('p', {}, [updated]),
  ]);
  replaceChildren(main, [title, tokenForm.element, pollStatus, summary, controls.elements, questions]);

  function showError(message) {
    pollStatus.textContent = message;
    pollStatus.hidden = false;
  }

  return {
    waitingForToken: false,
    onToken(callback) {
      tokenCallback = callback;
    },
    onQueryChange(callback) {
      queryCallback = callback;
    },
    queryString: () => controls.queryString(),
    rejectQuery: (reason) => controls.reject(reason),
    askForToken(message) {
      this.waitingForToken = true;
      tokenForm.show(message);
    },
    showPollError: showError,
    show(resultsDocument) {
      results = resultsDocument;
      controls.accept();
      tokenForm.hide();
      pollStatus.hidden = true;
      summary.hidden = false;
      updateSummary(resultsDocument);
      updatePanels(resultsDocument);
    },
  };

  function updateSummary(resultsDocument) {
    document.title = `Results: ${resultsDocument.title} — Deniable`;
    setText(title, `Results: ${resultsDocument.title}`);
    setText(respondents, formatInteger(resultsDocument.respondents));
    setText(totalEpsilon, formatEpsilon(resultsDocument.total_epsilon));
    const note = resultsDocument.total_epsilon_note?.replace(/^no formal epsilon:\s*/, '');
    setText(totalNote, note ? `(${note})` : '');
    setText(updated, `Updated ${new Date().toLocaleTimeString()} · refreshes every ${POLL_INTERVAL_MS / 1000} s`);
  }

  // Panels are built once per survey structure, then only updated in place;
  // each question's kind draws its panel (kinds/<type>/dashboard.js).
  function updatePanels(resultsDocument) {
    const key = JSON.stringify(resultsDocument.questions.map((question) =>
      [question.id, question.type, dashboardKind(question.type).structure(question)]));
    if (key !== structureKey) {
      panels?.forEach((panel) => panel.destroy());
      panels = resultsDocument.questions.map((question, index) => dashboardKind(question.type).createPanel(question, index));
      controls.show(resultsDocument.questions);
      replaceChildren(questions, panels.map((panel) => panel.element));
      structureKey = key;
    }
    resultsDocument.questions.forEach((question, index) => panels[index].update(question));
  }
}

start();
