import { el, replaceChildren } from '../shared/dom.js';
import { t } from './texts.js';
import { plainText } from '../shared/rich-text.js';
import { isCentral } from '../central/trust.js';
import { describeConfidentialResponse, hasCentral } from '../central/survey.js';
import { isOpen } from '../shared/open.js';
import { describeOpenResponse, hasOpen } from './open.js';
import { isOptional } from './question-fieldset.js';
import { questionShown } from './conditions.js';
import { surveyKind } from './kinds.js';

// The prepared report: in human terms per question, the raw JSON that will be
// sent and the Send button (an invitation survey's report goes with the
// device's token, said in a line: `invitation`).
// `onSend()` asks the page to send (the page's flow moves to "sending");
// render(context) then shows what the flow says: sending, refused (the
// report kept; a refused token is dropped, and Send with it) or sent. A report renewed in its
// place (a model's round moved on) is a new panel; this one is then done.
// `summaries` are the core's page summaries of the questions (parseSurvey).
// `notice`: why this report replaces one shown before, or null.
export function renderReportPanel({ survey, summaries, reportText, restored, notice = null, invitation = false, onSend, resultsUrl, preview = false }) {
  const report = JSON.parse(reportText);
  // Answers sent in confidence or asked openly are not randomised: the heading does not say they are.
  const mixed = hasCentral(survey, summaries) || hasOpen(survey, summaries);
  const heading = el('h2', { id: 'report-heading', tabindex: '-1', text: mixed ? t('reportHeadingMixed') : t('reportHeading') });
  const status = el('div', { class: 'send-status', testid: 'send-status', role: 'status', 'aria-live': 'polite' });
  const sendButton = el('button', {
    type: 'submit', class: 'button button-primary', testid: 'send-report', text: t('send'),
    disabled: preview, 'aria-describedby': preview ? 'preview-send-note' : null,
  });
  const sendForm = el('form', { class: 'send-form', novalidate: true }, [
    invitation ? el('p', { class: 'hint', testid: 'token-send-note', text: t('tokenSendNote') }) : null,
    sendButton,
    preview ? el('p', { class: 'hint', id: 'preview-send-note', testid: 'preview-send-note', text: t('previewSend') }) : null,
  ]);

  sendForm.addEventListener('submit', (event) => {
    event.preventDefault();
    if (preview) return;  // a preview sends nothing
    onSend();
  });

  const panel = el('section', { class: 'card report', 'aria-labelledby': 'report-heading', testid: 'report-panel' }, [
    heading,
    notice ? el('p', { class: 'notice notice-warning', testid: 'report-renewed', text: notice }) : null,
    el('p', { class: 'notice', testid: 'report-fixed-note', text: fixedNote(restored) }),
    skippedNote(survey, report),
    el('dl', { class: 'report-list' }, survey.questions.map((question, index) => {
      if (!questionShown(survey, question, report.responses)) return null;  // not asked: nothing to show
      return skippedIn(report, question) ? renderSkipped(question) : renderResponse(question, report.responses[question.id], summaries[index]);
    })),
    el('details', { class: 'raw-report', open: true }, [
      el('summary', { text: t('exactlySent') }),
      el('pre', { class: 'json', testid: 'report-json', text: reportText }),
    ]),
    sendForm,
    status,
  ]);
  return {
    element: panel,
    focus: () => heading.focus(),
    // The flow's state for this report: sending, prepared again after a
    // refused Send (context.error: why, in words), or sent.
    render(context) {
      if (context.state === 'sending') {
        sendButton.disabled = true;  // no double submission
        sendButton.textContent = t('sending');
        showStatus(status, 'pending', t('sendingStatus'));
      } else if (context.state === 'prepared' && context.error) {
        // Without a token (refused), Send would only be refused again.
        sendButton.disabled = invitation && !context.token;
        sendButton.textContent = t('send');
        showStatus(status, 'error', t('notAccepted', context.error));
      } else if (context.state === 'sent') {
        sendForm.hidden = true;
        showStatus(status, 'success', t('received'), resultsUrl);
        // Focus goes to the confirmation, not lost with the hidden Send button.
        const sentHeading = el('h2', { class: 'sent-heading', tabindex: '-1', testid: 'sent-heading', text: t('sentHeading') });
        status.prepend(sentHeading);
        sentHeading.focus();
      }
    },
  };
}

function fixedNote(restored) {
  return `${restored ? t('restoredPrefix') : ''}${t('fixedNote')}`;
}

// An optional question the respondent skipped has no entry in the report.
function skippedIn(report, question) {
  return isOptional(question) && !Object.hasOwn(report.responses, question.id);
}

function skippedNote(survey, report) {
  const numbers = survey.questions.flatMap((question, index) =>
    (skippedIn(report, question) && questionShown(survey, question, report.responses) ? [index + 1] : []));
  if (numbers.length === 0) return null;
  return el('p', { class: 'notice', testid: 'report-skipped', text: t('skippedNote', numbers.length, numbers.join(', ')) });
}

function renderSkipped(question) {
  return el('div', { class: 'report-item report-item-skipped', testid: `report-${question.id}` }, [
    el('dt', { text: plainText(question.text) }),
    el('dd', {}, [
      el('span', { class: 'report-label', text: t('labelled', t('skippedLabel')) }),
      el('strong', { testid: `report-value-${question.id}`, text: t('notSent') }),
      el('span', { class: 'report-explanation', text: t('skippedExplanation') }),
    ]),
  ]);
}

// A perturbed response in human terms ({label, values, more, explanation,
// note, details}; `more`: further parts of the report, e.g. a direction), as
// the question's kind reads its wire format (kinds/<type>/survey.js) with the
// core's summary of the question. A question answered in confidence or asked
// openly sends the answer as given, and says so (central/survey.js, survey/open.js).
function renderResponse(question, response, summary) {
  const central = isCentral(question) || isCentral(summary);
  const open = isOpen(question) || isOpen(summary);
  let description;
  if (open) description = describeOpenResponse(question, response);
  else if (central) description = describeConfidentialResponse(question, response, summary);
  else description = surveyKind(question.type).describeResponse(question, response, summary);
  const long = description.values.length > LONG_LIST;
  const itemClass = open ? ' report-item-open' : (central ? ' report-item-confidential' : '');
  return el('div', { class: `report-item${itemClass}`, testid: `report-${question.id}` }, [
    el('dt', { text: plainText(question.text) }),
    el('dd', {}, [
      el('span', { class: 'report-label', text: t('labelled', description.label) }),
      el('strong', { testid: `report-value-${question.id}`, text: long ? String(description.values.length) : formatValues(description.values) }),
      long ? renderLongList(question, description) : null,
      (description.more ?? []).map(renderMore),
      el('span', { class: 'report-explanation', text: description.explanation }),
      description.note ? el('span', { class: 'report-explanation', testid: `report-note-${question.id}`, text: description.note }) : null,
      description.details ? renderDetails(question, description.details) : null,
    ]),
  ]);
}

// A further part of the report, on a line of its own: {label, value, testid}.
function renderMore({ label, value, testid }) {
  return el('span', { class: 'report-line' }, [
    el('span', { class: 'report-label', text: t('labelled', label) }),
    el('strong', { testid, text: value }),
  ]);
}

// More values than this are counted, then listed in a box of their own that
// scrolls (a report can mark hundreds of ranges).
const LONG_LIST = 8;

// Focusable, so that a keyboard user can scroll it with the arrow keys.
function renderLongList(question, description) {
  return el('ul', {
    class: 'report-values', tabindex: '0', 'aria-label': description.label, testid: `report-values-${question.id}`,
  }, description.values.map((value) => el('li', { text: value })));
}

// The mechanism's terms, for readers who want them: {summary, items}.
function renderDetails(question, details) {
  return el('details', { class: 'report-details', testid: `report-details-${question.id}` }, [
    el('summary', { text: details.summary }),
    el('ul', {}, details.items.map((item) => el('li', { text: item }))),
  ]);
}

function formatValues(values) {
  return values.length === 0 ? t('none') : values.join(t('valueSeparator'));
}

function showStatus(status, kind, message, resultsUrl) {
  status.className = `send-status notice notice-${kind}`;
  status.dataset.state = kind;
  replaceChildren(status, [
    el('span', { text: message }),
    resultsUrl ? [' ', el('a', { href: resultsUrl, testid: 'results-link', text: t('seeResults') })] : null,
  ]);
}
