import { loadCore } from '../core.js';
import { requestJson, surveyPath } from '../shared/api.js';
import { el, append } from '../shared/dom.js';
import { showFatalError } from '../shared/fatal.js';
import { dashboardUrl, queryParameter, surveyIdFromLocation } from '../shared/location.js';
import { renderTrustNotice } from './confidential.js';
import { renderPrivacySummary } from './privacy-summary.js';
import { readAnswers, renderQuestion, unansweredHints } from './question-fieldset.js';
import { renderReportPanel } from './report-panel.js';
import { forgetPreparedReport, loadPreparedReport, savePreparedReport } from './prepared-report-store.js';
import { surveyKind } from './kinds.js';

// The survey page: load the definition and the WebAssembly core, collect the
// answers with native radio buttons, randomise them on this device, show the
// respondent the exact report, and send only that report.
//
// Questions with a public state (GET .../state names them, e.g. a model's
// current round and coefficients): their answers are given that state, fetched
// again just before randomising. If the server refuses the report because a
// state moved on (409 report_not_admitted), only those questions are
// randomised again, from the answers still in memory, and the respondent
// sees the new report and why before sending it.

const main = document.getElementById('survey-page');

async function start() {
  const surveyId = surveyIdFromLocation('/s/');
  if (!surveyId) {
    showFatalError(main, 'No survey selected', 'The address should look like /s/<survey id>.');
    return;
  }
  let survey, core, privacy, state;
  try {
    // The state is not needed to show the questions: if it cannot be had
    // now, it is asked for again when the report is prepared.
    [survey, core, state] = await Promise.all([requestJson(surveyPath(surveyId)), loadCore(), fetchState(surveyId).catch(() => null)]);
    privacy = core.parseSurvey(survey);
    survey = privacy.survey;
  } catch (error) {
    const title = error.status === 404 ? 'Survey not found' : 'The survey could not be loaded';
    showFatalError(main, title, error.message);
    return;
  }
  // The questions that have a public state (none for most surveys: then no
  // further request is made before sending); `ids` null until known.
  const stateful = { ids: state ? new Set(Object.keys(state.questions ?? {})) : null };
  renderSurvey(survey, privacy, core, stateful);
}

// The survey's public state: {survey, version, questions: {id: state}}.
function fetchState(surveyId) {
  return requestJson(surveyPath(surveyId, '/state'));
}

function renderSurvey(survey, privacy, core, stateful) {
  document.title = `${survey.title} — Deniable`;
  const errorBox = el('p', { class: 'notice notice-error', role: 'alert', testid: 'answer-error', hidden: true });
  const prepareButton = el('button', { type: 'submit', class: 'button button-primary', testid: 'prepare-report', text: 'Prepare my report' });
  const form = el('form', { class: 'survey-form', novalidate: true, testid: 'survey-form' }, [
    survey.questions.map((question, index) => renderQuestion(question, index, survey.questions)),
    errorBox,
    el('div', { class: 'actions' }, [prepareButton]),
  ]);
  main.replaceChildren();
  append(main, [
    el('h1', { testid: 'survey-title', text: survey.title }),
    survey.description ? el('p', { class: 'lead', text: survey.description }) : null,
    // Which questions the organisation sees, before the first question (only when some are answered in confidence).
    renderTrustNotice(survey, privacy.questions),
    renderPrivacySummary(survey, privacy),
    form,
  ]);

  // `answers`: the true answers behind the report, kept in memory only (null
  // for a report restored after a reload), to renew its stateful parts;
  // `notice`: why the report shown replaces an earlier one.
  const showReport = ({ reportText, restored = false, answers = null, notice = null, replacing = null, code = null }) => {
    lockForm(form, prepareButton);
    const panel = renderReportPanel({
      survey, summaries: privacy.questions, reportText, restored, notice,
      needsCode: survey.access === 'invitation',
      initialCode: code ?? queryParameter('code'),
      resultsUrl: survey.results === 'public' ? dashboardUrl(survey.id) : null,
      send: (code) => sendOrRenew(code),
    });
    if (replacing) replacing.element.replaceWith(panel.element);
    else main.append(panel.element);
    return panel;

    // Sends the report; if a question's state moved on, shows a renewed report
    // in this one's place instead (resolves {replaced: true}).
    async function sendOrRenew(code) {
      try {
        await sendReport(survey, reportText, code);
        return { replaced: false };
      } catch (error) {
        if (!(error.status === 409 && error.code === 'report_not_admitted') || !stateful.ids?.size) throw error;
        if (!answers) {
          forgetPreparedReport(survey);
          throw new Error(`${error.message}. This tab no longer holds your answers (they are never stored), so this report cannot be updated: reload the page to answer again.`);
        }
        const renewed = renewReport(core, survey, reportText, answers, await fetchState(survey.id));
        if (!renewed) throw error;
        savePreparedReport(survey, renewed.reportText);
        const next = showReport({ reportText: renewed.reportText, answers, notice: renewed.notice, replacing: panel, code });
        next.focus();
        return { replaced: true };
      }
    }
  };

  const restored = loadPreparedReport(survey);
  if (restored) {
    showReport({ reportText: restored, restored: true });
    return;
  }
  // A stale "please answer" message would contradict the answers being given.
  // Hidden while typing, not on leaving the field ("change"): the message sits
  // above the button, and hiding it as the pointer goes down on Prepare moved
  // the button from under the click, which then did nothing.
  form.addEventListener('input', () => { errorBox.hidden = true; });
  // Preparing may wait for the model's state: a second press meanwhile does nothing.
  let preparing = false;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (preparing) return;
    preparing = true;
    try {
      const prepared = await prepareReport(form, survey, core, errorBox, stateful);
      if (!prepared) return;
      savePreparedReport(survey, prepared.reportText);
      showReport(prepared).focus();
    } finally {
      preparing = false;
    }
  });
}

// Randomises the answers with the core (OS randomness) and returns
// {reportText: the exact JSON text to send, answers}, or null after showing
// what is missing. Questions with a public state get it, fetched now.
async function prepareReport(form, survey, core, errorBox, stateful) {
  const { answers, unanswered } = readAnswers(form, survey);
  if (unanswered.length > 0) {
    const list = unanswered.map((index) => index + 1).join(', ');
    const hints = unansweredHints(survey, unanswered).map((hint) => ` ${hint}`).join('');
    errorBox.textContent = `Please answer every question before preparing your report (unanswered: ${unanswered.length === 1 ? 'question' : 'questions'} ${list}).${hints}`;
    errorBox.hidden = false;
    focusQuestion(form, survey, unanswered[0]);
    return null;
  }
  errorBox.hidden = true;
  try {
    let state = null;
    if (!stateful.ids) {
      state = await fetchState(survey.id);
      stateful.ids = new Set(Object.keys(state.questions ?? {}));
    }
    if ([...stateful.ids].some((id) => Object.hasOwn(answers, id))) {
      withState(answers, state ?? await fetchState(survey.id));
    }
    return { reportText: JSON.stringify(core.perturb(survey, answers)), answers };
  } catch (error) {
    errorBox.textContent = `Your report could not be prepared: ${error.message}`;
    errorBox.hidden = false;
    return null;
  }
}

// A question's first answer control, or (for a question with none, e.g. a
// model built from other answers) its fieldset.
function focusQuestion(form, survey, index) {
  const control = form.querySelector(`input[name="answer-${index}"]`);
  if (control) {
    control.focus();
    return;
  }
  const fieldset = form.querySelector(`fieldset[data-question-id="${CSS.escape(survey.questions[index].id)}"]`);
  fieldset?.setAttribute('tabindex', '-1');
  fieldset?.focus();
}

// Puts each question's public state into its answer (an object), in place.
function withState(answers, state) {
  for (const [id, questionState] of Object.entries(state?.questions ?? {})) {
    const answer = answers[id];
    if (answer !== null && typeof answer === 'object' && !Array.isArray(answer)) answers[id] = { ...answer, state: questionState };
  }
  return answers;
}

// The report with its stateful questions randomised again at their current
// state (those whose response no longer fits it, by their kind; every
// stateful one when the kind cannot tell), the other responses unchanged:
// {reportText, notice}, or null when there is nothing to renew.
function renewReport(core, survey, reportText, answers, state) {
  const report = JSON.parse(reportText);
  const renew = survey.questions.filter((question) => {
    const questionState = state?.questions?.[question.id];
    if (!questionState || !Object.hasOwn(report.responses, question.id) || !Object.hasOwn(answers, question.id)) return false;
    const fits = surveyKind(question.type).fitsState;
    return typeof fits !== 'function' || !fits(report.responses[question.id], questionState);
  });
  if (renew.length === 0) return null;
  // Only those questions: every question made optional, only their answers given.
  const definition = { ...survey, questions: survey.questions.map((question) => ({ ...question, required: false })) };
  const renewedAnswers = withState(Object.fromEntries(renew.map((question) => [question.id, answers[question.id]])), state);
  const renewed = core.perturb(definition, renewedAnswers);
  for (const question of renew) report.responses[question.id] = renewed.responses[question.id];
  const notice = renew.map((question) => {
    const note = surveyKind(question.type).renewedNote;
    return typeof note === 'function'
      ? note(question, report.responses[question.id])
      : `The shared state of “${question.text}” moved on before your report arrived, so its part of your report was made again from the same answers; the rest is unchanged. Your first report did reach the server, so this spends that question’s privacy budget once more.`;
  }).join(' ');
  return { reportText: JSON.stringify(report), notice };
}

function lockForm(form, prepareButton) {
  for (const fieldset of form.querySelectorAll('fieldset')) fieldset.disabled = true;
  prepareButton.disabled = true;
  prepareButton.hidden = true;
}

async function sendReport(survey, reportText, code) {
  const headers = code ? { 'X-Invitation-Code': code } : {};
  await requestJson(surveyPath(survey.id, '/reports'), { method: 'POST', bodyText: reportText, headers });
  forgetPreparedReport(survey);
}

start();
