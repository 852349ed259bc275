import { loadCore } from '../core.js';
import { requestJson, surveyPath } from '../shared/api.js';
import { el, append } from '../shared/dom.js';
import { showFatalError } from '../shared/fatal.js';
import { dashboardUrl, queryParameter, surveyIdFromLocation } from '../shared/location.js';
import { renderPrivacySummary } from './privacy-summary.js';
import { readAnswers, renderQuestion, unansweredHints } from './question-fieldset.js';
import { renderReportPanel } from './report-panel.js';
import { forgetPreparedReport, loadPreparedReport, savePreparedReport } from './prepared-report-store.js';

// The survey page: load the definition and the WebAssembly core, collect the
// answers with native radio buttons, randomise them on this device, show the
// respondent the exact report, and send only that report.

const main = document.getElementById('survey-page');

async function start() {
  const surveyId = surveyIdFromLocation('/s/');
  if (!surveyId) {
    showFatalError(main, 'No survey selected', 'The address should look like /s/<survey id>.');
    return;
  }
  let survey, core, privacy;
  try {
    [survey, core] = await Promise.all([requestJson(surveyPath(surveyId)), loadCore()]);
    privacy = core.parseSurvey(survey);
    survey = privacy.survey;
  } catch (error) {
    const title = error.status === 404 ? 'Survey not found' : 'The survey could not be loaded';
    showFatalError(main, title, error.message);
    return;
  }
  renderSurvey(survey, privacy, core);
}

function renderSurvey(survey, privacy, core) {
  document.title = `${survey.title} — Deniable`;
  const errorBox = el('p', { class: 'notice notice-error', role: 'alert', testid: 'answer-error', hidden: true });
  const prepareButton = el('button', { type: 'submit', class: 'button button-primary', testid: 'prepare-report', text: 'Prepare my report' });
  const form = el('form', { class: 'survey-form', novalidate: true, testid: 'survey-form' }, [
    survey.questions.map(renderQuestion),
    errorBox,
    el('div', { class: 'actions' }, [prepareButton]),
  ]);
  main.replaceChildren();
  append(main, [
    el('h1', { testid: 'survey-title', text: survey.title }),
    survey.description ? el('p', { class: 'lead', text: survey.description }) : null,
    renderPrivacySummary(survey, privacy),
    form,
  ]);

  const showReport = (reportText, restored) => {
    lockForm(form, prepareButton);
    const panel = renderReportPanel({
      survey, summaries: privacy.questions, reportText, restored,
      needsCode: survey.access === 'invitation',
      initialCode: queryParameter('code'),
      resultsUrl: survey.results === 'public' ? dashboardUrl(survey.id) : null,
      send: (code) => sendReport(survey, reportText, code),
    });
    main.append(panel.element);
    return panel;
  };

  const restored = loadPreparedReport(survey);
  if (restored) {
    showReport(restored, true);
    return;
  }
  // A stale "please answer" message would contradict the answers being given.
  // Hidden while typing, not on leaving the field ("change"): the message sits
  // above the button, and hiding it as the pointer goes down on Prepare moved
  // the button from under the click, which then did nothing.
  form.addEventListener('input', () => { errorBox.hidden = true; });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const reportText = prepareReport(form, survey, core, errorBox);
    if (!reportText) return;
    savePreparedReport(survey, reportText);
    showReport(reportText, false).focus();
  });
}

// Randomises the answers with the core (OS randomness) and returns the report
// as the exact JSON text to send, or null after showing what is missing.
function prepareReport(form, survey, core, errorBox) {
  const { answers, unanswered } = readAnswers(form, survey);
  if (unanswered.length > 0) {
    const list = unanswered.map((index) => index + 1).join(', ');
    const hints = unansweredHints(survey, unanswered).map((hint) => ` ${hint}`).join('');
    errorBox.textContent = `Please answer every question before preparing your report (unanswered: ${unanswered.length === 1 ? 'question' : 'questions'} ${list}).${hints}`;
    errorBox.hidden = false;
    form.querySelector(`input[name="answer-${unanswered[0]}"]`).focus();
    return null;
  }
  errorBox.hidden = true;
  try {
    return JSON.stringify(core.perturb(survey, answers));
  } catch (error) {
    errorBox.textContent = `Your report could not be prepared: ${error.message}`;
    errorBox.hidden = false;
    return null;
  }
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
