import { bearer, requestJson, surveyPath } from '../shared/api.js';
import { el, replaceChildren, setText } from '../shared/dom.js';
import { showFatalError } from '../shared/fatal.js';
import { formatEpsilon, formatInteger } from '../shared/format.js';
import { surveyIdFromLocation } from '../shared/location.js';
import { loadAdminToken } from '../shared/admin-token.js';
import { isCentral } from '../central/trust.js';
import { isOpen } from '../shared/open.js';
import { createAdminTokenForm } from './admin-token-form.js';
import { createAnalyses } from './analysis-panels.js';
import { createCorrections } from './corrections.js';
import * as centralPanel from '../central/dashboard.js';
import { createExports } from './exports.js';
import { attachIntervalLine } from './interval-target.js';
import { createKindControls } from './kind-controls.js';
import { dashboardKind } from './kinds.js';
import { createPoller } from './poller.js';

// The results dashboard: polls the results document every 2 seconds and
// updates the numbers, tables and charts in place. When the analyst changes a
// setting, the numbers computed for the old settings go at once (never shown
// under the new settings' labels): a "computing" notice, announced to screen
// readers, stands in their place until the document for the new settings arrives.

const POLL_INTERVAL_MS = 2000;
const main = document.getElementById('dashboard-page');

function start() {
  const surveyId = surveyIdFromLocation('/results/');
  if (!surveyId) {
    showFatalError(main, 'No survey selected', 'The address should look like /results/<survey id>.');
    return;
  }
  let poller = null;
  const view = createView(surveyId, () => poller?.runNow());
  let stopped = false;
  poller = createPoller(async () => {
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
  // The analyst may change the settings while this request is out: its answer
  // then speaks for the settings it asked with, not for the new ones (the
  // poller runs again for those), so it neither accepts nor rejects them.
  const asked = view.queryString();
  const stillAsked = () => view.queryString() === asked;
  try {
    const results = await requestJson(surveyPath(surveyId, `/results${asked}`), { headers: bearer(token) });
    view.show(results, { acceptQuery: stillAsked(), query: asked });
    return false;
  } catch (error) {
    if (error.status === 401 || error.status === 403) {
      // The server's message speaks to programs (it names the header); the page asks for a sign-in.
      view.askForToken(token
        ? 'That admin token was not accepted. Check it (the server printed it when it first started) and sign in again.'
        : 'The results of this survey are for its admins only. Sign in with the admin token to see them.');
      return false;
    }
    if (error.status === 400 && asked) {
      if (stillAsked()) view.rejectQuery(error.message);
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

// The module that draws a question's panel: its kind's, or for a question
// answered in confidence (any kind that can be) the releases panel.
function panelModule(question) {
  return isCentral(question) ? centralPanel : dashboardKind(question.type);
}

// `refreshNow()`: poll at once (after a release was made).
function createView(surveyId, refreshNow) {
  let results = null;
  let panels = null;
  let intervalLines = [];
  let structureKey = '';
  let tokenCallback = () => {};
  let queryCallback = () => {};
  let analyses = null;
  const controls = createKindControls(() => {
    markComputing();
    queryCallback();
    analyses?.refresh();
  });
  // The analyses' intervals follow the page's choice (their only option).
  const interval = () => new URLSearchParams(controls.queryString()).get('interval') ?? 'population';
  const title = el('h1', { testid: 'survey-title', text: `Results: ${surveyId}` });
  const respondents = el('strong', { testid: 'respondents', text: '—' });
  const totalEpsilon = el('strong', { class: 'nowrap', testid: 'total-epsilon', text: '—' });
  const totalNote = el('span', { class: 'hint', testid: 'total-epsilon-note' });
  const updated = el('span', { class: 'hint', testid: 'last-updated' });
  const pollStatus = el('p', { class: 'notice notice-error', role: 'status', testid: 'poll-status', hidden: true });
  const questions = el('div', { class: 'question-results' });
  // Shown instead of the questions' numbers while the document for the
  // settings chosen is being computed (a role="status" region is polite).
  const computing = el('p', { class: 'notice notice-pending', role: 'status', testid: 'results-computing', hidden: true,
    text: 'Computing the results for the new settings…' });
  const resultsRegion = el('div', { class: 'results-region', testid: 'results-region', 'aria-busy': 'false' },
    [computing, questions]);
  // The settings the numbers on screen were computed with (null: none yet).
  let shownQuery = null;
  const analysisSlot = el('div', { class: 'analysis-slot' });
  const tokenForm = createAdminTokenForm(() => tokenCallback());
  const summary = el('section', { class: 'summary', hidden: true, testid: 'summary' }, [
    el('p', {}, ['Respondents: ', respondents]),
    el('p', {}, ['Total privacy budget per respondent: ', totalEpsilon, ' ', totalNote]),
    createExports(surveyId, () => results, (message) => showError(message), () => controls.queryString()),
    el('p', {}, [updated]),
  ]);
  const corrections = createCorrections(surveyId);
  replaceChildren(main, [title, tokenForm.element, pollStatus, summary, corrections.element, controls.elements, resultsRegion, analysisSlot]);

  // The numbers on screen belong to other settings than those chosen: they
  // give way to the computing notice (and come back if the choice does).
  function markComputing() {
    const stale = shownQuery !== null && controls.queryString() !== shownQuery;
    questions.hidden = stale;
    computing.hidden = !stale;
    resultsRegion.setAttribute('aria-busy', stale ? 'true' : 'false');
  }

  function showError(message) {
    pollStatus.textContent = message;
    pollStatus.hidden = false;
  }

  // What a releases panel needs from the page.
  let definition = null;
  const panelContext = {
    surveyId,
    refresh: () => refreshNow(),
    offerToken: (message) => tokenForm.offer(message),
    // From the survey's definition (public): whether its admins may see exact counts.
    allowsExactCounts(questionId) {
      definition ??= requestJson(surveyPath(surveyId)).catch((error) => {
        definition = null;
        throw error;
      });
      return definition.then((survey) => survey.questions.some((question) => question.id === questionId && question.admin_sees_counts === true));
    },
  };

  return {
    waitingForToken: false,
    onToken(callback) {
      tokenCallback = callback;
    },
    onQueryChange(callback) {
      queryCallback = callback;
    },
    queryString: () => controls.queryString(),
    rejectQuery(reason) {
      controls.reject(reason);
      markComputing();  // back to the settings on screen, or still waiting for theirs
    },
    askForToken(message) {
      this.waitingForToken = true;
      tokenForm.show(message);
    },
    showPollError: showError,
    // `query`: the settings the document was computed with; an answer for
    // settings no longer chosen is not drawn (the poller asks again).
    show(resultsDocument, { acceptQuery = true, query = controls.queryString() } = {}) {
      tokenForm.hide();
      pollStatus.hidden = true;
      if (!acceptQuery) return;
      results = resultsDocument;
      controls.accept();
      summary.hidden = false;
      updateSummary(resultsDocument);
      corrections.refresh();
      updatePanels(resultsDocument);
      shownQuery = query;
      markComputing();
    },
  };

  function updateSummary(resultsDocument) {
    document.title = `Results: ${resultsDocument.title} — Deniable`;
    setText(title, `Results: ${resultsDocument.title}`);
    setText(respondents, formatInteger(resultsDocument.respondents));
    setText(totalEpsilon, formatEpsilon(resultsDocument.total_epsilon));
    const note = resultsDocument.total_epsilon_note?.replace(/^no formal epsilon:\s*/, '');
    // The core's total leaves out the questions asked openly: said so.
    const open = resultsDocument.questions.filter(isOpen).length;
    const openNote = open > 0 ? `${open === 1 ? 'the question' : `the ${open} questions`} asked openly: not protected, not counted` : '';
    const notes = [note, openNote].filter(Boolean).join('; ');
    setText(totalNote, notes ? `(${notes})` : '');
    setText(updated, `Updated ${new Date().toLocaleTimeString()} · refreshes every ${POLL_INTERVAL_MS / 1000} s`);
  }

  // Panels are built once per survey structure, then only updated in place;
  // each question's kind draws its panel (kinds/<type>/dashboard.js).
  function updatePanels(resultsDocument) {
    const key = JSON.stringify(resultsDocument.questions.map((question) =>
      [question.id, question.type, question.text, panelModule(question).structure(question)]));  // the text: a correction rebuilds
    if (key !== structureKey) {
      panels?.forEach((panel) => panel.destroy());
      panels = resultsDocument.questions.map((question, index) => panelModule(question).createPanel(question, index, panelContext));
      intervalLines = panels.map((panel, index) => attachIntervalLine(panel.element, resultsDocument.questions[index]));
      controls.show(resultsDocument.questions);
      analyses?.destroy();
      analyses = createAnalyses(resultsDocument.questions, { surveyId, interval });
      panels.forEach((panel, index) => {
        const breakdown = analyses.breakdownFor(resultsDocument.questions[index].id);
        if (breakdown) panel.element.append(breakdown);
      });
      replaceChildren(analysisSlot, [analyses.element]);
      replaceChildren(questions, panels.map((panel) => panel.element));
      structureKey = key;
    }
    resultsDocument.questions.forEach((question, index) => {
      panels[index].update(question);
      intervalLines[index](question);
    });
  }
}

start();
