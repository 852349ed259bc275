// The survey page's flow as one state machine: where the respondent is, and
// which steps may follow. The page (main.js and its views) renders from the
// state and asks the machine before it acts; nothing else decides whether a
// report may still be prepared, sent or replaced. No DOM and no I/O here, so
// the rules are tested on their own (tests/wasm/survey-flow.test.mjs).
//
//   loading ──open──▶ closed | alreadyAnswered | invitation | answering | prepared
//   loading ──fail──▶ failed (no survey in the address, not found, not loaded)
//   invitation, invitationRefused ──checkCode──▶ checkingCode (the code exchanged for a token)
//   invitation, invitationRefused, checkingCode ──refuseCode──▶ invitationRefused
//   checkingCode ──issuanceFailed──▶ issuanceFailed ──retry──▶ checkingCode (the same blinded element)
//   checkingCode ──unverified──▶ invitationUnverified (the server's proof does not verify: nothing follows)
//   checkingCode ──issued──▶ answering, or prepared (a report kept from before that had no token)
//   answering ──review──▶ reviewing ──change──▶ answering
//   reviewing ──prepare──▶ preparing ──prepared──▶ prepared
//   preparing ──prepareFailed──▶ reviewing
//   answering, reviewing, preparing ──preparedElsewhere──▶ prepared (another tab's report)
//   prepared ──send──▶ sending ──sent──▶ sent (an invitation survey: only with a token)
//   sending ──sendFailed──▶ prepared, sending ──renewed──▶ prepared (a model's round moved on)
//   sending ──tokenRefused──▶ prepared without a token (used or invalid: another invitation's link is needed)
//   answering … sending ──answeredElsewhere──▶ alreadyAnswered (another tab sent)
//   answering, reviewing ──edit──▶ the same state, answers touched (leaving then warns)
//
// Once prepared, a report is never drawn again: no event leads from prepared,
// sending or sent back to the questions. A preview never sends.
//
// An event the state does not allow is refused: dispatch() throws a FlowError
// naming the event, the state and why. Events that race with the respondent or
// another tab (a draw finishing after another tab's report arrived, say) are
// asked first with can(), and dropped when refused.

export const STATES = Object.freeze({
  loading: 'loading',
  failed: 'failed',
  closed: 'closed',
  alreadyAnswered: 'alreadyAnswered',
  invitation: 'invitation',
  checkingCode: 'checkingCode',
  invitationRefused: 'invitationRefused',
  issuanceFailed: 'issuanceFailed',
  invitationUnverified: 'invitationUnverified',
  answering: 'answering',
  reviewing: 'reviewing',
  preparing: 'preparing',
  prepared: 'prepared',
  sending: 'sending',
  sent: 'sent',
});

const S = STATES;
// Where the questions (or their review) are on view and a report is not yet prepared.
const BEFORE_REPORT = [S.answering, S.reviewing, S.preparing];
// Where the respondent is answering this survey (not stopped, not yet sent).
const IN_PROGRESS = [...BEFORE_REPORT, S.prepared, S.sending];

// A report as the page shows it: {reportText, answers (null when restored:
// the true answers are gone), restored, notice (why it replaced one)}.
function report({ reportText, answers = null, restored = false, notice = null }) {
  if (typeof reportText !== 'string' || reportText === '') throw new FlowError('a report needs its text');
  return { reportText, answers, restored, notice };
}

// A token as the page keeps it: {input, output} (hex), and the public key it
// was verified with (hex, or null when not known).
function token({ input, output, public_key: publicKey = null } = {}) {
  if (typeof input !== 'string' || input === '' || typeof output !== 'string' || output === '') {
    throw new FlowError('a token needs its input and output');
  }
  return { input, output, public_key: publicKey };
}

// Each event: the states it may leave, and what it makes of the context
// (the next state and the context's changes). `data` is the event's payload.
const EVENTS = {
  // The page's facts at load: {restored (a prepared report's text, or null),
  // answered (a Date, or null), accepting (false when closed), invitation
  // (the survey needs an invitation), token (this device's token for it, or
  // null)}. A report already prepared wins over all else: it is shown, never
  // drawn again; an invitation survey's, once there is a token to send it with
  // (without one, the gate comes first and the report is held meanwhile).
  open: {
    from: [S.loading],
    apply(context, { restored = null, answered = null, accepting = true, invitation = false, token: kept = null }) {
      const gated = invitation && !context.preview && !kept;
      const opened = { invitation: invitation && !context.preview, token: kept ? token(kept) : null };
      if (restored && !gated) return { ...opened, state: S.prepared, report: report({ reportText: restored, restored: true }) };
      if (answered) return { ...opened, state: S.alreadyAnswered, answeredOn: answered };
      if (accepting === false) return { ...opened, state: S.closed };
      if (gated) return { ...opened, state: S.invitation, held: restored ? report({ reportText: restored, restored: true }) : null };
      return { ...opened, state: S.answering };
    },
  },
  // {title, message}: why the page cannot show the survey.
  fail: { from: [S.loading], apply: (context, { title, message }) => ({ state: S.failed, error: { title, message } }) },
  checkCode: { from: [S.invitation, S.invitationRefused], apply: () => ({ state: S.checkingCode, error: null }) },
  // {message}: why the code is refused (empty, unknown, used).
  refuseCode: { from: [S.invitation, S.invitationRefused, S.checkingCode], apply: (context, { message }) => ({ state: S.invitationRefused, error: message }) },
  // {message}: the token request did not reach the server or got no answer;
  // the page keeps its pending issuance and retries it with the same element.
  issuanceFailed: { from: [S.checkingCode], apply: (context, { message }) => ({ state: S.issuanceFailed, error: message }) },
  retry: { from: [S.issuanceFailed], apply: () => ({ state: S.checkingCode, error: null }) },
  // {message, detail}: the server's evaluation came with a proof that does not
  // verify against the survey's public key: the page goes no further.
  unverified: {
    from: [S.checkingCode],
    apply: (context, { message, detail = null }) => ({ state: S.invitationUnverified, error: message, detail }),
  },
  // {token}: the token this device now holds ({input, output, public_key});
  // the questions follow, or the report held since the page opened.
  issued: {
    from: [S.checkingCode],
    apply: (context, { token: issued }) => (context.held
      ? { state: S.prepared, token: token(issued), report: context.held, held: null, error: null }
      : { state: S.answering, token: token(issued), error: null }),
  },
  // {read}: the answers read from the controls ({answers, unanswered, skipped}).
  review: { from: [S.answering], apply: (context, { read }) => ({ state: S.reviewing, read, error: null }) },
  // {index}: the question to go back to.
  change: { from: [S.reviewing], apply: (context, { index = null } = {}) => ({ state: S.answering, focus: index, error: null }) },
  prepare: { from: [S.reviewing], apply: () => ({ state: S.preparing, error: null }) },
  prepareFailed: { from: [S.preparing], apply: (context, { message }) => ({ state: S.reviewing, error: message }) },
  // {reportText, answers}: the draw, from the answers still in memory.
  prepared: { from: [S.preparing], apply: (context, data) => ({ state: S.prepared, report: report(data), error: null }) },
  // {reportText, focus}: a report another tab (or an earlier visit) prepared;
  // `focus`: the respondent asked for a report here (it goes to the report).
  preparedElsewhere: {
    from: BEFORE_REPORT,
    apply: (context, { reportText, focus = false }) => ({ state: S.prepared, report: report({ reportText, restored: true }), focus, error: null }),
  },
  // An invitation survey's report goes with the device's token, never a code.
  send: {
    from: [S.prepared],
    refuse(context) {
      if (context.preview) return 'a preview sends nothing';
      return context.invitation && !context.token ? 'an invitation survey sends only with a token' : null;
    },
    apply: () => ({ state: S.sending, error: null }),
  },
  sendFailed: { from: [S.sending], apply: (context, { message }) => ({ state: S.prepared, error: message }) },
  // {message}: the server refused the token (already used to send a report,
  // or not valid for this survey): the report is kept, the token dropped.
  tokenRefused: { from: [S.sending], apply: (context, { message }) => ({ state: S.prepared, token: null, error: message }) },
  // {reportText, notice}: the report with its stateful parts drawn again.
  renewed: {
    from: [S.sending],
    apply: (context, { reportText, notice }) => ({
      state: S.prepared, error: null,
      report: report({ reportText, notice, answers: context.report.answers }),
    }),
  },
  sent: { from: [S.sending], apply: () => ({ state: S.sent, error: null }) },
  // {date}: when another tab of this device sent its report.
  answeredElsewhere: { from: IN_PROGRESS, apply: (context, { date }) => ({ state: S.alreadyAnswered, answeredOn: date, error: null }) },
  // The respondent edited an answer (leaving then loses it: the page warns).
  edit: { from: [S.answering, S.reviewing], apply: () => ({ touched: true }) },
};

export const EVENT_NAMES = Object.freeze(Object.keys(EVENTS));

export class FlowError extends Error {
  constructor(message) {
    super(message);
    this.name = 'FlowError';
  }
}

// `preview`: the admin's "preview as a respondent" (no invitation gate, no Send).
export function createSurveyFlow({ preview = false } = {}) {
  let context = Object.freeze({
    state: S.loading, preview, invitation: false, token: null, held: null, detail: null, read: null, report: null,
    error: null, answeredOn: null, touched: false, focus: null,
  });
  const listeners = [];

  // Why `event` cannot happen now, or null when it can.
  function refusal(event) {
    const rule = EVENTS[event];
    if (!rule) return `no event "${event}"`;
    if (!rule.from.includes(context.state)) return `"${event}" cannot happen in state "${context.state}"`;
    return rule.refuse?.(context) ?? null;
  }

  return {
    get state() {
      return context.state;
    },
    // The state with what it carries (frozen; a new object per event):
    // {state, preview, invitation (the survey needs one), token (the device's
    // token, see token() above), held (a report kept from before, waiting for
    // a token), detail (the technical reason a proof was refused), read (the
    // answers reviewed), report (see report() above), error (why the last step
    // failed, in words), answeredOn (a Date), touched (answers edited), focus
    // (where the step asks focus to go: a question's index after "change",
    // true for a report the respondent asked for)}.
    get context() {
      return context;
    },
    can(event) {
      return refusal(event) === null;
    },
    refusal,
    // Moves to the event's state and tells the listeners (state, context,
    // event); throws a FlowError, changing nothing, when the event is refused.
    dispatch(event, data = {}) {
      const why = refusal(event);
      if (why) throw new FlowError(why);
      const previous = context;
      context = Object.freeze({ ...context, focus: null, ...EVENTS[event].apply(context, data) });
      for (const listener of [...listeners]) listener(context, { event, previous });
      return context;
    },
    subscribe(listener) {
      listeners.push(listener);
      return () => listeners.splice(listeners.indexOf(listener), 1);
    },
    // Whether leaving the page loses something: a prepared report not yet
    // sent, or answers given and not yet made into a report. Never in a preview.
    warnsOnLeave() {
      if (preview) return false;
      if (context.state === S.prepared || context.state === S.sending) return true;
      return context.touched && BEFORE_REPORT.includes(context.state);
    },
  };
}
