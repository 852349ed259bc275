import { loadClientCore } from '../core-client.js';
import { requestJson, surveyPath } from '../shared/api.js';
import { el, append } from '../shared/dom.js';
import { showFatalError } from '../shared/fatal.js';
import { dashboardUrl, queryParameter, surveyIdFromLocation } from '../shared/location.js';
import { renderTrustNotice } from '../central/survey.js';
import { answeredCount, checkAnswers, focusQuestion, PROGRESS_FROM } from './answer-check.js';
import { createSurveyFlow } from './flow.js';
import { renderInvitationGate } from './invitation-gate.js';
import { renderInvitationKept } from './invitation-kept.js';
import { createTokenIssuer, keyFingerprint } from './invitation-token.js';
import { renderPrivacyPending, renderPrivacySummary } from './privacy-summary.js';
import { loadSurveyKinds } from './kinds.js';
import { applyConditions, renderQuestion } from './question-fieldset.js';
import { createResume } from './resume.js';
import { disableAnswersStore, forgetAnswers } from './answers-store.js';
import { fetchState, randomise, renewReport, sendReport } from './report-draw.js';
import { renderReportPanel } from './report-panel.js';
import { renderReview } from './review.js';
import {
  answeredOn, disableStore, forgetInvitation, forgetPreparedReport, isAnsweredKey, isPreparedKey, loadInvitation, loadPreparedReport,
  markAnswered, savePendingIssuance, savePreparedReport, saveToken,
} from './prepared-report-store.js';
import { formatDate, loadTranslations, setLanguage } from '../shared/i18n.js';
import { t } from './texts.js';
import { errorInWords } from './error-words.js';
import { setNumberLocale } from '../shared/format.js';
import { plainText, richText } from '../shared/rich-text.js';

// The survey page: load the definition and the WebAssembly core, collect the
// answers with native radio buttons, randomise them on this device, show the
// respondent the exact report, and send only that report.
//
// The questions are drawn from the definition alone (the server serves its
// canonical form, the one the core's parse gives back), with only the code of
// the kinds it asks; the client core is fetched after them, so that on a slow
// link its bytes do not delay the questions. What needs the core waits for it
// (createProtection): the privacy summary (a plain "preparing privacy
// protection" status meanwhile), Prepare, an invitation's token, a report
// panel.
//
// Where the respondent is (the gate, the questions, the review, the report,
// sent, or stopped: closed, already answered) is the state of one machine,
// flow.js; the handlers below ask it before they act, and render() draws
// what each state shows.
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

const flow = createSurveyFlow({ preview });

async function start() {
  if (preview) {
    disableStore();
    disableAnswersStore();
  }
  const surveyId = surveyIdFromLocation('/s/');
  if (!surveyId) {
    flow.dispatch('fail', { title: 'No survey selected', message: 'The address should look like /s/<survey id>.' });
    showFatalError(main, flow.context.error.title, flow.context.error.message);
    return;
  }
  let survey, state, status;
  try {
    // The state is not needed to show the questions: if it cannot be had
    // now, it is asked for again when the report is prepared. Without the
    // status (an older server), the survey is taken as open.
    // The kinds' code, and the page's words in a language other than
    // English, are asked for as soon as the definition names them.
    const definition = requestJson(surveyPath(surveyId));
    [survey, state, status] = await Promise.all([
      definition, fetchState(surveyId).catch(() => null),
      requestJson(surveyPath(surveyId, '/status')).catch(() => null),
      definition.then(async (loaded) => {
        // The kinds' code beside the page's own words, then the kinds' own words.
        await Promise.all([loadSurveyKinds(loaded), loadTranslations(loaded.language)]);
        await loadTranslations(loaded.language);
      }),
    ]);
  } catch (error) {
    flow.dispatch('fail', { title: error.status === 404 ? 'Survey not found' : 'The survey could not be loaded', message: error.message });
    showFatalError(main, flow.context.error.title, flow.context.error.message);
    return;
  }
  applyLanguage(survey.language);
  document.title = `${plainText(survey.title)} — Deniable`;
  // The questions that have a public state (none for most surveys: then no
  // further request is made before sending); `ids` null until known.
  const stateful = { ids: state ? new Set(Object.keys(state.questions ?? {})) : null };
  const protection = createProtection(survey);
  const page = createPage(survey, protection, stateful, status);
  flow.subscribe(page.render);
  flow.dispatch('open', {
    restored: loadPreparedReport(survey), answered: answeredOn(survey),
    accepting: status ? status.accepting : true, invitation: survey.access === 'invitation', token: loadInvitation(survey).token,
  });
  // Answers kept for resuming are the true answers: once a report is prepared or sent, they go.
  if (['prepared', 'alreadyAnswered'].includes(flow.state)) forgetAnswers(survey);
  // Once the first step is drawn; a survey that has stopped (closed, already answered) needs no core.
  if (!['closed', 'alreadyAnswered'].includes(flow.state)) protection.ready().catch(() => {});
}

// The client core and the survey's page summaries (core.parseSurvey): ready()
// resolves to {core, privacy}, fetching the core on the first call (again
// after a failure); `now` is that value once it has arrived, else null;
// whenReady(callback) calls back with it, at once when it is there.
function createProtection(survey) {
  let promise = null;
  let value = null;
  const listeners = [];  // {resolve, reject}: told of every failure, and of the success
  const load = async () => {
    const core = await loadClientCore();
    return { core, privacy: core.parseSurvey(survey) };
  };
  const ready = () => {
    promise ??= load().then((loaded) => {
      value = loaded;
      for (const listener of listeners.splice(0)) listener.resolve(value);
      return value;
    }, (error) => {
      promise = null;  // a later ready() (Prepare) tries again
      for (const listener of listeners) listener.reject(error);
      throw error;
    });
    return promise;
  };
  return {
    ready,
    get now() {
      return value;
    },
    // onReady(value) once the core is there (at once if it is); onError(error) each time loading fails.
    whenReady(onReady, onError = () => {}) {
      if (value) onReady(value);
      else listeners.push({ resolve: onReady, reject: onError });
    },
  };
}

// Once this browser holds the token, the code has done its work: it leaves
// the address (and so the history and any later Referer), a reload reusing
// the token.
function dropCodeFromAddress() {
  const url = new URL(window.location.href);
  if (!url.searchParams.has('code')) return;
  url.searchParams.delete('code');
  window.history.replaceState(window.history.state, '', url.href);
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

function renderHeader(survey) {
  main.replaceChildren();
  append(main, [
    preview ? el('p', { class: 'notice notice-warning preview-banner', testid: 'preview-banner', role: 'note', text: t('previewBanner') }) : null,
    el('h1', { testid: 'survey-title', text: plainText(survey.title) }),
    survey.description ? el('p', { class: 'lead', testid: 'survey-description' }, richText(survey.description)) : null,
  ]);
}

// The page for one survey: render(context, {event, previous}) draws each
// state of the flow, building the gate, the questions and the report once,
// when the flow first reaches them. `status`: GET …/status (null from an
// older server).
function createPage(survey, protection, stateful, status) {
  let gate = null;
  let questions = null;
  const handlers = createHandlers(survey, protection, stateful);
  listenToOtherTabs(survey, () => questions);
  // Answers are kept on the device until the report is prepared (resume.js),
  // where the browser lets the page store them; where it does not, leaving or
  // reloading before the report is prepared would lose them, and leaving with
  // a prepared report unsent would leave it unsent, so either warns.
  window.addEventListener('beforeunload', (event) => {
    if (!flow.warnsOnLeave()) return;
    if (questions?.answersKept() && ['answering', 'reviewing'].includes(flow.state)) return;
    event.preventDefault();
    event.returnValue = t('leaveWarning');
  });

  function render(context, step) {
    switch (context.state) {
      case 'closed':
        renderHeader(survey);
        main.append(renderStop(survey, { title: t('closedTitle'), lines: [closedMessage(status)], testid: 'survey-closed' }));
        return;
      case 'alreadyAnswered':
        forgetAnswers(survey);
        renderHeader(survey);
        main.append(renderStop(survey, {
          title: t('answeredTitle'), lines: [t('answeredOn', formatDate(context.answeredOn)), t('answeredMore')], testid: 'already-answered',
        }));
        return;
      case 'invitation':
      case 'checkingCode':
      case 'invitationRefused':
      case 'issuanceFailed':
      case 'invitationUnverified':
        if (gate) {
          gate.render(context);
          return;
        }
        renderHeader(survey);
        gate = renderInvitationGate({ onCheck: (code) => handlers.checkCode(code, gate), onRetry: () => handlers.retry(gate) });
        main.append(gate.element);
        // A code in the address (?code=), or an exchange this device began
        // earlier (retried with the same blinded element), goes at once;
        // otherwise, or when it is refused, the respondent types one.
        if (queryParameter('code') || loadInvitation(survey).pending) handlers.checkCode(queryParameter('code')?.trim() || null, gate);
        return;
      default:
        if (!questions) {
          // Before the first question: the invitation is now kept in this
          // browser, and what the organisers can and cannot link.
          const kept = context.invitation && context.token ? renderInvitationKept(context.token) : null;
          if (kept) dropCodeFromAddress();
          if (gate) gate.element.replaceWith(kept ?? '');
          else {
            renderHeader(survey);
            if (kept) main.append(kept);
          }
          questions = createQuestionsView(survey, protection, handlers);
          questions.restoreAnswers();
        }
        questions.render(context, step);
    }
  }
  return { render };
}

// What the respondent's buttons do: each asks the flow first, does the work
// (a request, a draw) and tells the flow how it went.
function createHandlers(survey, protection, stateful) {
  // The token issuer needs the core (blinding, the proof's check): made once it is there.
  let issuer = null;
  const issuerReady = async () => {
    const { core } = await protection.ready();
    issuer ??= createTokenIssuer({
      surveyId: survey.id, core, request: requestJson,
      store: {
        load: () => loadInvitation(survey),
        savePending: (pending) => savePendingIssuance(survey, pending),
        saveToken: (token) => saveToken(survey, token),
        forget: () => forgetInvitation(survey),
      },
    });
    return issuer;
  };

  // What the exchange came to, told to the flow (and the refused code kept in the field).
  function settle(outcome, code, gate) {
    switch (outcome.outcome) {
      case 'issued':
        flow.dispatch('issued', { token: outcome.token });
        return;
      case 'failed':
        flow.dispatch('issuanceFailed', { message: t('issuanceFailed', outcome.error.message) });
        return;
      case 'unverified':
        flow.dispatch('unverified', {
          message: t('unverifiedMessage'),
          detail: t('unverifiedDetail', outcome.error.message, keyFingerprint(outcome.publicKey) ?? t('keyUnknown')),
        });
        return;
      case 'refused':
        if (code) gate.keep(code);
        flow.dispatch('refuseCode', { message: errorInWords(outcome.error) });
        return;
      default:  // noCode
        flow.dispatch('refuseCode', { message: t('inviteEmpty') });
    }
  }

  return {
    // An invitation code (or the exchange this device began earlier)
    // exchanged for a token before any question.
    async checkCode(code, gate) {
      if (!flow.can('checkCode')) return;
      flow.dispatch('checkCode');
      let outcome;
      try {
        outcome = await (await issuerReady()).obtain(code);
      } catch (error) {
        outcome = { outcome: 'failed', error };
      }
      settle(outcome, code, gate);
    },

    // After a failure: the same blinded element again.
    async retry(gate) {
      if (!flow.can('retry')) return;
      flow.dispatch('retry');
      let outcome;
      try {
        outcome = await (await issuerReady()).retry();
      } catch (error) {
        outcome = { outcome: 'failed', error };
      }
      settle(outcome, null, gate);
    },

    // "Check my answers": the answers read from the controls, or, when some
    // are missing or refused, the questions stay with the reasons.
    review(form, errorBox) {
      if (!flow.can('review')) return;
      const read = checkAnswers(form, survey, errorBox);
      if (read) flow.dispatch('review', { read });
    },

    // The report is prepared once, from the answers on the controls (the same
    // ones the review showed: the questions are hidden meanwhile).
    async prepare(form, errorBox) {
      if (!flow.can('prepare')) return;
      const read = checkAnswers(form, survey, errorBox);
      if (!read) {
        flow.dispatch('change');
        return;
      }
      flow.dispatch('prepare');
      let prepared;
      try {
        // The core may still be on its way: Prepare waits for it (the review's buttons are busy).
        const { core } = await protection.ready();
        prepared = await randomise(survey, core, read.answers, stateful);
      } catch (error) {
        if (flow.can('prepareFailed')) flow.dispatch('prepareFailed', { message: error.message });
        return;
      }
      // While the model's state was fetched, another tab may have prepared a
      // report (shown here by then) or sent one: this draw is dropped, never a
      // second randomisation of the same answers.
      if (!flow.can('prepared')) return;
      const date = answeredOn(survey);
      if (date) {
        flow.dispatch('answeredElsewhere', { date });
        return;
      }
      // Another tab may have prepared one meanwhile: that one is used.
      const other = loadPreparedReport(survey);
      if (other) {
        flow.dispatch('preparedElsewhere', { reportText: other, focus: true });
        return;
      }
      savePreparedReport(survey, prepared.reportText);
      flow.dispatch('prepared', prepared);
    },

    // Sends the report; if a question's state moved on, the report is
    // renewed in its place instead, to be looked at and sent again.
    async send() {
      if (!flow.can('send')) return;
      flow.dispatch('send');
      const { reportText, answers } = flow.context.report;
      try {
        await sendReport(survey, reportText, flow.context.token);
      } catch (error) {
        // A used or invalid token is dropped: the report is kept for another invitation's link.
        if (error.status && (error.code === 'token_used' || error.code === 'token_invalid')) {
          forgetInvitation(survey);
          if (flow.can('tokenRefused')) flow.dispatch('tokenRefused', { message: errorInWords(error) });
          return;
        }
        let renewed;
        try {
          renewed = await renewAfterRefusal(survey, (await protection.ready()).core, stateful, error, reportText, answers);
        } catch (failure) {
          if (flow.can('sendFailed')) flow.dispatch('sendFailed', { message: errorInWords(failure) });
          return;
        }
        savePreparedReport(survey, renewed.reportText);
        if (flow.can('renewed')) flow.dispatch('renewed', renewed);
        return;
      }
      markAnswered(survey);
      forgetInvitation(survey);
      if (flow.can('sent')) flow.dispatch('sent');
    },
  };
}

// A report refused because a question's state moved on, or a model that
// completed its rounds (its part is then left out): {reportText, notice},
// renewed once per click, never in a loop. Throws what the respondent is
// told otherwise.
async function renewAfterRefusal(survey, core, stateful, error, reportText, answers) {
  const stateMoved = error.status === 409 && (error.code === 'report_not_admitted' || error.code === 'model_complete');
  if (!stateMoved || !stateful.ids?.size) throw error;
  if (!answers) {
    forgetPreparedReport(survey);
    throw new Error(`${error.message}. ${t('cannotRenew')}`);
  }
  const renewed = renewReport(core, survey, reportText, answers, await fetchState(survey.id));
  if (!renewed) throw error;
  return renewed;
}

// Another tab of this device prepared a report (it is used here too, never
// a second randomisation) or sent one (this tab stops offering the questions).
function listenToOtherTabs(survey, questionsView) {
  window.addEventListener('storage', (event) => {
    if (!event.newValue) return;
    if (isPreparedKey(survey, event.key) && flow.can('preparedElsewhere')) {
      const reportText = loadPreparedReport(survey);
      if (!reportText) return;
      // Focus in the questions or the review, which now go, moves to the report.
      flow.dispatch('preparedElsewhere', { reportText, focus: questionsView()?.hasFocus() ?? false });
    } else if (isAnsweredKey(survey, event.key) && flow.can('answeredElsewhere')) {
      const date = answeredOn(survey);
      if (date) flow.dispatch('answeredElsewhere', { date });
    }
  });
}

// The questions, then "Check your answers" (review.js), whose button
// prepares the report once (Change goes back to a question), then the
// report (report-panel.js): render(context, {event}) shows the flow's step.
function createQuestionsView(survey, protection, handlers) {
  const errorBox = el('p', { class: 'notice notice-error', role: 'alert', testid: 'answer-error', hidden: true });
  const reviewButton = el('button', { type: 'submit', class: 'button button-primary', testid: 'review-answers', text: t('reviewButton') });
  const many = survey.questions.length > PROGRESS_FROM;
  let hidden = [];  // the questions hidden by their conditions (show_if), from the answers on the controls
  const progress = many ? el('p', { class: 'progress', testid: 'progress', 'aria-live': 'polite' }) : null;
  const form = el('form', { class: 'survey-form', id: 'questions', tabindex: '-1', novalidate: true, testid: 'survey-form' }, [
    progress,
    survey.questions.map((question, index) => renderQuestion(question, index, survey.questions)),
    errorBox,
    el('div', { class: 'actions' }, [reviewButton]),
  ]);
  const review = renderReview(survey, {
    onChange: (index) => {
      if (flow.can('change')) flow.dispatch('change', { index });
    },
    onPrepare: () => handlers.prepare(form, errorBox),
  });
  // Which questions the organisation sees, before the first question (only
  // when some are answered in confidence or openly): from the definition
  // until the core's summaries are there, then from both.
  let trustNotice = renderTrustNotice(survey, protection.now?.privacy.questions ?? []);
  let privacySummary = protection.now ? renderPrivacySummary(survey, protection.now.privacy) : renderPrivacyPending();
  const resume = createResume(form, survey);
  append(main, [trustNotice, privacySummary, resume.element, form, review.element]);
  protection.whenReady(({ privacy }) => {
    // The summary is taller than its status: once the respondent has begun
    // answering, the page scrolls by what it grew, so that the question
    // under their finger stays where it was (before that, it shows in place).
    const anchor = form.hidden ? review.element : form;
    const keepPlace = flow.context.touched || main.contains(document.activeElement);
    const before = anchor.getBoundingClientRect().top;
    const notice = renderTrustNotice(survey, privacy.questions);
    if (trustNotice) trustNotice.replaceWith(notice ?? '');
    else if (notice) privacySummary.before(notice);
    trustNotice = notice;
    const summary = renderPrivacySummary(survey, privacy);
    privacySummary.replaceWith(summary);
    privacySummary = summary;
    if (keepPlace) window.scrollBy(0, anchor.getBoundingClientRect().top - before);
  }, (error) => {
    const failed = renderPrivacyPending(error);
    privacySummary.replaceWith(failed);
    privacySummary = failed;
  });
  const refreshProgress = () => {
    if (progress) progress.textContent = t('progress', answeredCount(form, survey), survey.questions.length - hidden.length);
  };
  // A question shown or hidden by a condition is said (politely) to screen
  // readers: it appears after the answer that brought it, out of their sight.
  const conditionStatus = survey.questions.some((question) => question.show_if)
    ? el('p', { class: 'visually-hidden', 'aria-live': 'polite', testid: 'condition-status' }) : null;
  if (conditionStatus) form.prepend(conditionStatus);
  const refreshConditions = () => {
    const before = hidden;
    hidden = applyConditions(form, survey);
    const shown = before.filter((index) => !hidden.includes(index));
    const gone = hidden.filter((index) => !before.includes(index));
    if (conditionStatus && (shown.length > 0 || gone.length > 0)) {
      conditionStatus.textContent = [
        ...shown.map((index) => t('questionNowAsked', index + 1, plainText(survey.questions[index].text))),
        ...gone.map((index) => t('questionNoLongerAsked', index + 1)),
      ].join(' ');
    }
  };
  hidden = applyConditions(form, survey);
  refreshProgress();
  form.addEventListener('input', refreshConditions);
  form.addEventListener('change', refreshConditions);
  form.addEventListener('change', refreshProgress);
  const edited = () => {
    if (flow.can('edit')) flow.dispatch('edit');
  };
  form.addEventListener('input', edited);
  form.addEventListener('change', edited);
  // A stale "please answer" message would contradict the answers being given.
  // Hidden while typing, not on leaving the field ("change"): the message sits
  // above the button, and hiding it as the pointer goes down on the button
  // moved the button from under the click, which then did nothing.
  form.addEventListener('input', () => { errorBox.hidden = true; });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    handlers.review(form, errorBox);
  });

  let panel = null;  // the report on view, once prepared

  // A new report panel: prepared here, restored (a reload, another tab), or
  // renewed in the place of the one refused. The questions go at once; the
  // panel, which words the report with the core's summaries, follows the core
  // (at once, unless the report was restored before it arrived), unless the
  // flow has moved on meanwhile.
  function showReport(context, event) {
    const { report } = context;
    resume.forget();
    lockForm(form);
    review.setBusy(false);
    // The review stays as the record of the answers this report was made
    // from; a report from another tab or an earlier visit may come from other
    // answers, so then it goes.
    if (report.restored) review.hide();
    else review.lock();
    protection.whenReady(({ privacy }) => {
      if (flow.context === context) showPanel(context, event, privacy);
    });
    protection.ready().catch(() => {});
  }

  function showPanel(context, event, privacy) {
    const { report } = context;
    const next = renderReportPanel({
      survey, summaries: privacy.questions, reportText: report.reportText, restored: report.restored, notice: report.notice,
      invitation: context.invitation,
      resultsUrl: resultsUrlOf(survey),
      preview,
      onSend: () => handlers.send(),
    });
    if (panel && event === 'renewed') panel.element.replaceWith(next.element);
    else main.append(next.element);
    panel = next;
    if (event === 'prepared' || event === 'renewed' || (event === 'preparedElsewhere' && context.focus)) panel.focus();
  }

  return {
    hasFocus: () => form.contains(document.activeElement) || review.element.contains(document.activeElement),
    answersKept: () => resume.kept(),
    // What this device kept from an earlier visit, put back (after the
    // listeners above, so conditions and progress follow it). Called once the
    // view is the page's: putting answers back is an edit, which the flow
    // tells the page about.
    restoreAnswers() {
      if (flow.state === 'answering') resume.restore();
    },
    render(context, { event }) {
      switch (context.state) {
        case 'answering':
          if (event !== 'change') return;
          review.hide();
          form.hidden = false;
          if (context.focus !== null) focusQuestion(form, survey, context.focus);
          return;
        case 'reviewing':
          if (event === 'review') {
            form.hidden = true;
            review.show(context.read);
          } else if (event === 'prepareFailed') {
            review.setBusy(false);
            review.showError(t('notPrepared', context.error));
          }
          return;
        case 'preparing':
          review.setBusy(true);
          return;
        case 'prepared':
          if (event === 'sendFailed' || event === 'tokenRefused') panel.render(context);
          else showReport(context, event);
          return;
        default:  // sending, sent
          panel.render(context);
      }
    },
  };
}

// Once prepared, the answers cannot be changed: the questions are locked and
// hidden (a report restored after a reload has no answers on them to show).
function lockForm(form) {
  for (const fieldset of form.querySelectorAll('fieldset')) fieldset.disabled = true;
  form.hidden = true;
}

start();
