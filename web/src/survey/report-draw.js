// The survey page's report, drawn and sent: the answers randomised by the
// core (with the public state of questions that have one, e.g. a model's
// current round), the stateful parts drawn again when that state moved on,
// and the report posted.
import { requestJson, surveyPath } from '../shared/api.js';
import { plainText } from '../shared/rich-text.js';
import { forgetPreparedReport } from './prepared-report-store.js';
import { tokenHeader } from './invitation-token.js';
import { surveyKind } from './kinds.js';
import { t } from './texts.js';

// The survey's public state: {survey, version, questions: {id: state}}.
export function fetchState(surveyId) {
  return requestJson(surveyPath(surveyId, '/state'));
}

// Randomises the answers with the core (OS randomness): {reportText: the
// exact JSON text to send, answers}. Questions with a public state get it,
// fetched now. Throws when the state cannot be had or the core refuses.
export async function randomise(survey, core, answers, stateful) {
  let state = null;
  if (!stateful.ids) {
    state = await fetchState(survey.id);
    stateful.ids = new Set(Object.keys(state.questions ?? {}));
  }
  if ([...stateful.ids].some((id) => Object.hasOwn(answers, id))) {
    withState(answers, state ?? await fetchState(survey.id));
  }
  return { reportText: JSON.stringify(core.perturb(survey, answers)), answers };
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
export function renewReport(core, survey, reportText, answers, state) {
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
      : t('renewedDefault', plainText(question.text));
  }).join(' ');
  return { reportText: JSON.stringify(report), notice };
}

// Posts the report (an invitation survey's with the device's token, never a
// code); once accepted, the device no longer keeps it.
export async function sendReport(survey, reportText, token) {
  const headers = token ? { 'X-Invitation-Token': tokenHeader(token) } : {};
  await requestJson(surveyPath(survey.id, '/reports'), { method: 'POST', bodyText: reportText, headers });
  forgetPreparedReport(survey);
}
