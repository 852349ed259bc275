import { loadCore } from '../core.js';
import { requestJson, surveyPath } from '../shared/api.js';
import { el, append } from '../shared/dom.js';
import { showFatalError } from '../shared/fatal.js';
import { dashboardUrl, queryParameter, surveyIdFromLocation } from '../shared/location.js';
import { renderTrustNotice } from '../central/survey.js';
import { renderPrivacySummary } from './privacy-summary.js';
import { readAnswers, renderQuestion, unansweredHints } from './question-fieldset.js';
import { renderReportPanel } from './report-panel.js';
import { renderReview } from './review.js';
import {
  answeredOn, disableStore, forgetPreparedReport, isAnsweredKey, isPreparedKey, loadPreparedReport, markAnswered, savePreparedReport,
} from './prepared-report-store.js';
import { formatDate, setLanguage } from '../shared/i18n.js';
import { t } from './texts.js';
import { errorInWords } from './error-words.js';
import { setNumberLocale } from '../shared/format.js';
import { plainText, richText } from '../shared/rich-text.js';
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
// sees the new report and why before sending it. A model that has done all
// its rounds (409 model_complete, or "complete" in its state) gets null: its
// part is left out, and the page says so in plain words.

const main = document.getElementById('survey-page');

// A preview (the admin's "preview as a respondent", ?preview=1): everything
// works except Send, and nothing is stored on the device.
const preview = queryParameter('preview') === '1';

async function start() {
  if (preview) disableStore();
  const surveyId = surveyIdFromLocation('/s/');
  if (!surveyId) {
    showFatalError(main, 'No survey selected', 'The address should look like /s/<survey id>.');
    return;
  }
  let survey, core, privacy, state, status;
  try {
    // The state is not needed to show the questions: if it cannot be had
    // now, it is asked for again when the report is prepared. Without the
    // status (an older server), the survey is taken as open.
    [survey, core, state, status] = await Promise.all([
      requestJson(surveyPath(surveyId)), loadCore(), fetchState(surveyId).catch(() => null),
      requestJson(surveyPath(surveyId, '/status')).catch(() => null),
    ]);
    privacy = core.parseSurvey(survey);
    survey = privacy.survey;
  } catch (error) {
    const title = error.status === 404 ? 'Survey not found' : 'The survey could not be loaded';
    showFatalError(main, title, error.message);
    return;
  }
  applyLanguage(survey.language);
  // The questions that have a public state (none for most surveys: then no
  // further request is made before sending); `ids` null until known.
  const stateful = { ids: state ? new Set(Object.keys(state.questions ?? {})) : null };
  renderSurvey(survey, privacy, core, stateful, status);
}

// The page's lang, its fixed text and its number formats follow the survey's "language".
function applyLanguage(tag) {
  const language = setLanguage(tag);
  document.documentElement.lang = language;
  setNumberLocale(language);
  const skip = document.querySelector('[data-testid="skip-link"]');
  if (skip) {
    skip.textContent = t('skipLink');
    skip.addEventListener('click', (event) => skipToCurrentStep(event));
  }
}

// The skip link goes to the step on view: the prepared report, else the
// review of the answers, else the questions (its own target, #questions,
// is hidden once the questions give way to the review).
function skipToCurrentStep(event) {
  const target = ['report-heading', 'review-heading', 'questions']
    .map((id) => document.getElementById(id))
    .find((node) => node && node.getClientRects().length > 0);
  if (!target) return;
  event.preventDefault();
  target.focus();
}

// The survey's public state: {survey, version, questions: {id: state}}.
function fetchState(surveyId) {
  return requestJson(surveyPath(surveyId, '/state'));
}

function resultsUrlOf(survey) {
  return survey.results === 'public' ? dashboardUrl(survey.id) : null;
}

// A card shown instead of the questions (closed, already answered): a
// focusable heading, the message, and the results link when public.
function renderStop(survey, { title, lines, testid }) {
  const resultsUrl = resultsUrlOf(survey);
  return el('section', { class: 'card stop-card', testid, role: 'status' }, [
    el('h2', { tabindex: '-1', text: title }),
    lines.map((line) => el('p', { text: line })),
    resultsUrl ? el('p', {}, [el('a', { href: resultsUrl, testid: 'results-link', text: t('seeResults') })]) : null,
  ]);
}

// Said in the page's language from the status's fields (the server's own
// message is in English): closed by the organisers, or at its closing time.
function closedMessage(status) {
  const closesAt = status.status === 'open' && status.closes_at ? new Date(status.closes_at) : null;
  return closesAt && !Number.isNaN(closesAt.getTime()) ? t('closedAt', formatDate(closesAt)) : t('closedDefault');
}

function renderAnswered(survey, date) {
  return renderStop(survey, { title: t('answeredTitle'), lines: [t('answeredOn', formatDate(date)), t('answeredMore')], testid: 'already-answered' });
}

function renderHeader(survey) {
  main.replaceChildren();
  append(main, [
    preview ? el('p', { class: 'notice notice-warning preview-banner', testid: 'preview-banner', role: 'note', text: t('previewBanner') }) : null,
    el('h1', { testid: 'survey-title', text: plainText(survey.title) }),
    survey.description ? el('p', { class: 'lead', testid: 'survey-description' }, richText(survey.description)) : null,
  ]);
}

function renderSurvey(survey, privacy, core, stateful, status) {
  document.title = `${plainText(survey.title)} — Deniable`;
  renderHeader(survey);
  const restored = loadPreparedReport(survey);
  const answered = answeredOn(survey);
  if (answered && !restored) {
    main.append(renderAnswered(survey, answered));
    return;
  }
  if (!restored && status && status.accepting === false) {
    main.append(renderStop(survey, { title: t('closedTitle'), lines: [closedMessage(status)], testid: 'survey-closed' }));
    return;
  }
  if (!restored && survey.access === 'invitation' && !preview) {
    renderInvitationGate(survey, (code) => renderQuestions(survey, privacy, core, stateful, { code, restored: null }));
    return;
  }
  renderQuestions(survey, privacy, core, stateful, { code: null, restored });
}

// An invitation survey: the code is checked (not spent) before any question.
// A code in the address (?code=) is checked at once; otherwise, or when it is
// refused, the respondent types one. `proceed(code)` shows the questions.
function renderInvitationGate(survey, proceed) {
  const input = el('input', {
    id: 'gate-code', name: 'gate-code', type: 'text', autocomplete: 'off', spellcheck: 'false', testid: 'gate-code',
    'aria-describedby': 'gate-message',
  });
  const message = el('p', { id: 'gate-message', class: 'field-error', testid: 'gate-message', role: 'alert', hidden: true });
  const button = el('button', { type: 'submit', class: 'button button-primary', testid: 'gate-check', text: t('inviteCheck') });
  const form = el('form', { class: 'gate-form', novalidate: true }, [
    el('div', { class: 'field' }, [el('label', { for: 'gate-code', text: t('inviteLabel') }), input, message]),
    el('div', { class: 'actions' }, [button]),
  ]);
  const card = el('section', { class: 'card invitation-gate', testid: 'invitation-gate', 'aria-labelledby': 'gate-heading' }, [
    el('h2', { id: 'gate-heading', text: t('inviteTitle') }),
    el('p', { testid: 'gate-needed', text: t('inviteNeeded') }),
    form,
  ]);
  main.append(card);
  const refuse = (text) => {
    message.textContent = text;
    message.hidden = false;
    input.setAttribute('aria-invalid', 'true');
  };
  const check = async (code) => {
    if (!code) {
      refuse(t('inviteEmpty'));
      input.focus();
      return;
    }
    button.disabled = true;
    button.textContent = t('inviteChecking');
    try {
      await requestJson(surveyPath(survey.id, '/invitations/check'), { method: 'POST', json: {}, headers: { 'X-Invitation-Code': code } });
      card.replaceWith(el('p', { class: 'notice notice-success', testid: 'gate-valid', text: t('inviteOk') }));
      proceed(code);
    } catch (error) {
      button.disabled = false;
      button.textContent = t('inviteCheck');
      input.value = code;
      refuse(errorInWords(error));
      input.focus();
    }
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    check(input.value.trim());
  });
  const fromAddress = queryParameter('code');
  if (fromAddress) check(fromAddress.trim());
}

// Two steps: the questions, then "Check your answers" (review.js), whose
// button prepares the report once; Change goes back to a question.
function renderQuestions(survey, privacy, core, stateful, { code: checkedCode, restored }) {
  const errorBox = el('p', { class: 'notice notice-error', role: 'alert', testid: 'answer-error', hidden: true });
  const reviewButton = el('button', { type: 'submit', class: 'button button-primary', testid: 'review-answers', text: t('reviewButton') });
  const many = survey.questions.length > PROGRESS_FROM;
  const progress = many ? el('p', { class: 'progress', testid: 'progress', 'aria-live': 'polite' }) : null;
  const form = el('form', { class: 'survey-form', id: 'questions', tabindex: '-1', novalidate: true, testid: 'survey-form' }, [
    progress,
    survey.questions.map((question, index) => renderQuestion(question, index, survey.questions)),
    errorBox,
    el('div', { class: 'actions' }, [reviewButton]),
  ]);
  const review = renderReview(survey, {
    onChange: (index) => {
      review.hide();
      form.hidden = false;
      focusQuestion(form, survey, index);
    },
    onPrepare: () => prepareOnce(),
  });
  append(main, [
    // Which questions the organisation sees, before the first question (only when some are answered in confidence).
    renderTrustNotice(survey, privacy.questions),
    renderPrivacySummary(survey, privacy),
    form,
    review.element,
  ]);
  const refreshProgress = () => {
    if (progress) progress.textContent = t('progress', answeredCount(form, survey), survey.questions.length);
  };
  refreshProgress();
  form.addEventListener('change', refreshProgress);

  let unsent = false;  // a prepared report shown and not sent: leaving warns
  let currentPanel = null;
  let sent = false;
  // Answers are kept in memory only (never stored on the device): leaving or
  // reloading before the report is prepared would lose them, so it warns.
  let answering = false;
  form.addEventListener('input', () => { answering = true; });
  form.addEventListener('change', () => { answering = true; });
  window.addEventListener('beforeunload', (event) => {
    if (preview || sent) return;
    if (!unsent && !(answering && !currentPanel)) return;
    event.preventDefault();
    event.returnValue = t('leaveWarning');
  });

  // `answers`: the true answers behind the report, kept in memory only (null
  // for a report restored after a reload), to renew its stateful parts;
  // `notice`: why the report shown replaces an earlier one.
  const showReport = ({ reportText, restored: wasRestored = false, answers = null, notice = null, replacing = null, code = null }) => {
    lockForm(form);
    // The review stays as the record of the answers this report was made
    // from; a report from another tab or an earlier visit may come from other
    // answers, so then it goes.
    if (wasRestored) review.hide();
    else review.lock();
    unsent = true;
    const panel = renderReportPanel({
      survey, summaries: privacy.questions, reportText, restored: wasRestored, notice,
      needsCode: survey.access === 'invitation',
      initialCode: code ?? checkedCode ?? queryParameter('code'),
      resultsUrl: resultsUrlOf(survey),
      preview,
      send: (code) => sendOrRenew(code),
      onSent: () => {
        unsent = false;
        sent = true;
        markAnswered(survey);
      },
    });
    if (replacing) replacing.element.replaceWith(panel.element);
    else main.append(panel.element);
    currentPanel = panel;
    return panel;

    // Sends the report; if a question's state moved on, shows a renewed report
    // in this one's place instead (resolves {replaced: true}).
    async function sendOrRenew(code) {
      try {
        await sendReport(survey, reportText, code);
        return { replaced: false };
      } catch (error) {
        // A state that moved on, or a model that completed its rounds (its
        // part is then left out): renewed once per click, never in a loop.
        const stateMoved = error.status === 409 && (error.code === 'report_not_admitted' || error.code === 'model_complete');
        if (!stateMoved || !stateful.ids?.size) throw error;
        if (!answers) {
          forgetPreparedReport(survey);
          throw new Error(`${error.message}. ${t('cannotRenew')}`);
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

  // Another tab of this device prepared a report (it is used here too, never
  // a second randomisation) or sent one (this tab stops offering the questions).
  window.addEventListener('storage', (event) => {
    if (preview || sent) return;
    if (isPreparedKey(survey, event.key) && event.newValue && !currentPanel) {
      const text = loadPreparedReport(survey);
      if (!text) return;
      // Focus in the questions or the review, which now go, moves to the report.
      const hadFocus = form.contains(document.activeElement) || review.element.contains(document.activeElement);
      const panel = showReport({ reportText: text, restored: true });
      if (hadFocus) panel.focus();
    } else if (isAnsweredKey(survey, event.key) && event.newValue) {
      const date = answeredOn(survey);
      if (!date) return;
      unsent = false;
      renderHeader(survey);
      main.append(renderAnswered(survey, date));
    }
  });

  if (restored) {
    showReport({ reportText: restored, restored: true });
    return;
  }
  // A stale "please answer" message would contradict the answers being given.
  // Hidden while typing, not on leaving the field ("change"): the message sits
  // above the button, and hiding it as the pointer goes down on the button
  // moved the button from under the click, which then did nothing.
  form.addEventListener('input', () => { errorBox.hidden = true; });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (currentPanel) return;
    const read = checkAnswers(form, survey, errorBox);
    if (!read) return;
    form.hidden = true;
    review.show(read);
  });

  // The report is prepared from the answers on the controls (the same ones the
  // review showed: the questions are hidden meanwhile).
  async function prepareOnce() {
    if (currentPanel) return;
    const read = checkAnswers(form, survey, errorBox);
    if (!read) {
      review.hide();
      form.hidden = false;
      return;
    }
    let prepared;
    try {
      prepared = await randomise(survey, core, read.answers, stateful);
    } catch (error) {
      review.showError(t('notPrepared', error.message));
      return;
    }
    // While the model's state was fetched, another tab may have prepared a
    // report (shown here by then) or sent one: this draw is dropped, never a
    // second randomisation of the same answers.
    if (currentPanel || sent || answeredOn(survey)) return;
    // Another tab may have prepared one meanwhile: that one is used.
    const other = loadPreparedReport(survey);
    if (other) {
      showReport({ reportText: other, restored: true }).focus();
      return;
    }
    savePreparedReport(survey, prepared.reportText);
    showReport(prepared).focus();
  }
}

// Surveys with more questions than this show how many are answered.
const PROGRESS_FROM = 5;

// How many questions are answered or skipped, read from the controls.
function answeredCount(form, survey) {
  try {
    const { answers, skipped } = readAnswers(form, survey);
    return Object.keys(answers).length + skipped.length;
  } catch {
    return 0;
  }
}

// The answers read from the controls ({answers, unanswered, skipped}), or
// null after saying, above the button, which questions to answer or correct
// and moving focus to the first of them.
function checkAnswers(form, survey, errorBox) {
  const read = readAnswers(form, survey);
  // A typed number that was refused (outside the range, say) is marked by its
  // field with the reason; it is named as such, not as unanswered.
  const refused = read.unanswered.filter((index) => form.querySelector(`input[name="answer-${index}"][aria-invalid="true"]`));
  const unanswered = askedFor(survey, read.unanswered.filter((index) => !refused.includes(index)));
  // Each question named by its number and its text, so the list says which in words.
  const numbers = (indices) => indices.map((index) => questionInWords(survey, index)).join(', ');
  markUnanswered(form, survey, unanswered);
  if (refused.length > 0) {
    errorBox.textContent = t('correctQuestions', refused.length, numbers(refused)) +
      (unanswered.length > 0 ? ` ${t('stillUnanswered', numbers(unanswered))}` : '');
    errorBox.hidden = false;
    form.querySelector(`input[name="answer-${refused[0]}"]`)?.focus();
    return null;
  }
  if (unanswered.length > 0) {
    const hints = unansweredHints(survey, unanswered).map((hint) => ` ${hint}`).join('');
    errorBox.textContent = `${t('answerEvery', unanswered.length, numbers(unanswered))}${hints}`;
    errorBox.hidden = false;
    focusQuestion(form, survey, unanswered[0]);
    return null;
  }
  errorBox.hidden = true;
  return read;
}

// A question built from other questions' answers (a model: there is nothing
// to answer on it) is not asked for while one of those questions is: that
// question is what the respondent has to answer.
function askedFor(survey, unanswered) {
  const missing = new Set(unanswered.map((index) => survey.questions[index].id));
  return unanswered.filter((index) => {
    const question = survey.questions[index];
    const used = surveyKind(question.type).answersUsed?.(question) ?? [];
    return !used.some((id) => missing.has(id));
  });
}

// "2 (“How much do you earn?”)": a question's number with its text, cut short when long.
function questionInWords(survey, index) {
  const text = plainText(survey.questions[index].text);
  const short = text.length > 60 ? `${text.slice(0, 57).trimEnd()}…` : text;
  return `${index + 1} (“${short}”)`;
}

// Marks each unanswered question where it is (a red border and "Not answered
// yet" under its text), until the respondent answers it; other marks go.
function markUnanswered(form, survey, unanswered) {
  for (const note of form.querySelectorAll('.question-unanswered-note')) note.remove();
  for (const fieldset of form.querySelectorAll('.question-unanswered')) fieldset.classList.remove('question-unanswered');
  for (const index of unanswered) {
    const fieldset = form.querySelector(`fieldset[data-question-id="${CSS.escape(survey.questions[index].id)}"]`);
    if (!fieldset) continue;
    fieldset.classList.add('question-unanswered');
    const note = el('p', { class: 'question-unanswered-note', testid: `unanswered-${survey.questions[index].id}`, text: t('notAnsweredYet') });
    const legend = fieldset.querySelector('legend');
    if (legend) legend.after(note);
    else fieldset.prepend(note);
    const clear = () => {
      fieldset.classList.remove('question-unanswered');
      note.remove();
    };
    fieldset.addEventListener('input', clear, { once: true });
    fieldset.addEventListener('change', clear, { once: true });
  }
}

// Randomises the answers with the core (OS randomness): {reportText: the
// exact JSON text to send, answers}. Questions with a public state get it,
// fetched now. Throws when the state cannot be had or the core refuses.
async function randomise(survey, core, answers, stateful) {
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

// A question's first answer control, or (for a question with none, e.g. a
// model built from other answers) its fieldset.
function focusQuestion(form, survey, index) {
  const control = form.querySelector(`input[name="answer-${index}"]:checked`) ?? form.querySelector(`input[name="answer-${index}"]`);
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
      : t('renewedDefault', plainText(question.text));
  }).join(' ');
  return { reportText: JSON.stringify(report), notice };
}

// Once prepared, the answers cannot be changed: the questions are locked and
// hidden (a report restored after a reload has no answers on them to show).
function lockForm(form) {
  for (const fieldset of form.querySelectorAll('fieldset')) fieldset.disabled = true;
  form.hidden = true;
}

async function sendReport(survey, reportText, code) {
  const headers = code ? { 'X-Invitation-Code': code } : {};
  await requestJson(surveyPath(survey.id, '/reports'), { method: 'POST', bodyText: reportText, headers });
  forgetPreparedReport(survey);
}

start();
