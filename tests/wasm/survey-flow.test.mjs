// The survey page's flow (web/src/survey/flow.js): the states the page can be
// in, the events that move it, and the ones it refuses (dispatch throws a
// FlowError and changes nothing). Plain JavaScript: no browser, no server.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSurveyFlow, EVENT_NAMES, FlowError, STATES } from '../../web/src/survey/flow.js';

const REPORT = '{"survey":"s","version":1,"responses":{"q":1}}';
const RENEWED = '{"survey":"s","version":1,"responses":{"q":2}}';
const READ = { answers: { q: 'a' }, unanswered: [], skipped: [] };
const TOKEN = { input: 'aa'.repeat(32), output: 'bb'.repeat(64), public_key: 'cc'.repeat(32) };

function opened(facts = {}, options = {}) {
  const flow = createSurveyFlow(options);
  flow.dispatch('open', facts);
  return flow;
}

// A flow with a report prepared from answers on this page.
function preparedFlow(options = {}) {
  const flow = opened({}, options);
  flow.dispatch('review', { read: READ });
  flow.dispatch('prepare');
  flow.dispatch('prepared', { reportText: REPORT, answers: READ.answers });
  return flow;
}

function assertRefused(flow, event, data, reason) {
  const before = flow.context;
  assert.equal(flow.can(event), false, `${event} in ${flow.state}`);
  assert.throws(() => flow.dispatch(event, data), (error) => error instanceof FlowError && reason.test(error.message));
  assert.equal(flow.context, before, `${event} refused: the context is unchanged`);
}

test('opening the page: a prepared report wins, then answered, closed, the invitation gate, else the questions', () => {
  const answered = new Date('2026-01-02T03:04:05Z');
  assert.equal(opened({ restored: REPORT, answered, accepting: false, invitation: true, token: TOKEN }).state, STATES.prepared);
  assert.equal(opened({ restored: REPORT }).context.report.restored, true);
  assert.equal(opened({ restored: REPORT }).context.report.answers, null, 'a restored report has no answers behind it');
  const stopped = opened({ answered, accepting: false, invitation: true });
  assert.equal(stopped.state, STATES.alreadyAnswered);
  assert.equal(stopped.context.answeredOn, answered);
  assert.equal(opened({ accepting: false, invitation: true }).state, STATES.closed);
  assert.equal(opened({ invitation: true }).state, STATES.invitation);
  assert.equal(opened({ invitation: true }, { preview: true }).state, STATES.answering, 'a preview has no gate');
  assert.equal(opened({ accepting: null }).state, STATES.answering, 'no status (an older server): open');
  assert.equal(opened().state, STATES.answering);
});

test('a page that cannot load the survey fails, and nothing follows', () => {
  const flow = createSurveyFlow();
  flow.dispatch('fail', { title: 'Survey not found', message: '404' });
  assert.equal(flow.state, STATES.failed);
  assert.deepEqual(flow.context.error, { title: 'Survey not found', message: '404' });
  for (const event of EVENT_NAMES) assert.equal(flow.can(event), false, event);
});

test('answering → reviewing → preparing → prepared → sending → sent, each step told to the listeners', () => {
  const flow = opened();
  const seen = [];
  flow.subscribe((context, { event, previous }) => seen.push(`${previous.state}-${event}->${context.state}`));
  flow.dispatch('edit');
  assert.equal(flow.context.touched, true);
  flow.dispatch('review', { read: READ });
  assert.equal(flow.context.read, READ);
  flow.dispatch('change', { index: 0 });
  assert.equal(flow.context.focus, 0, 'Change goes back to its question');
  flow.dispatch('review', { read: READ });
  flow.dispatch('prepare');
  flow.dispatch('prepared', { reportText: REPORT, answers: READ.answers });
  assert.deepEqual(flow.context.report, { reportText: REPORT, answers: READ.answers, restored: false, notice: null });
  flow.dispatch('send');
  flow.dispatch('sent');
  assert.deepEqual(seen, [
    'answering-edit->answering', 'answering-review->reviewing', 'reviewing-change->answering', 'answering-review->reviewing',
    'reviewing-prepare->preparing', 'preparing-prepared->prepared', 'prepared-send->sending', 'sending-sent->sent',
  ]);
  assert.equal(flow.state, STATES.sent);
  for (const event of EVENT_NAMES) assert.equal(flow.can(event), false, `nothing follows a sent report: ${event}`);
});

test('refused events throw a FlowError that names the event and the state, and change nothing', () => {
  assertRefused(opened(), 'send', {}, /"send" cannot happen in state "answering"/);
  assertRefused(opened(), 'prepare', {}, /"prepare" cannot happen in state "answering"/);
  assertRefused(opened({ accepting: false }), 'review', { read: READ }, /state "closed"/);
  assertRefused(opened(), 'open', {}, /"open" cannot happen in state "answering"/);
  assertRefused(opened(), 'teleport', {}, /no event "teleport"/);
  // Once prepared, never a second draw, never back to the questions.
  const flow = preparedFlow();
  assertRefused(flow, 'prepared', { reportText: RENEWED }, /state "prepared"/);
  assertRefused(flow, 'change', { index: 0 }, /state "prepared"/);
  assertRefused(flow, 'review', { read: READ }, /state "prepared"/);
  assertRefused(flow, 'preparedElsewhere', { reportText: RENEWED }, /state "prepared"/);
  assert.equal(flow.context.report.reportText, REPORT);
});

test('a prepared report never leads back to the questions, whatever happens to it', () => {
  // Every sequence of up to four allowed events after a report is prepared.
  const questions = new Set([STATES.answering, STATES.reviewing, STATES.preparing]);
  const data = { reportText: RENEWED, notice: 'moved on', message: 'refused', date: new Date(), token: TOKEN };
  const replay = (path) => {
    const flow = preparedFlow();
    for (const event of path) flow.dispatch(event, data);
    return flow;
  };
  let paths = [[]];
  let checked = 0;
  for (let depth = 0; depth < 4; depth++) {
    paths = paths.flatMap((path) => EVENT_NAMES.filter((event) => replay(path).can(event)).map((event) => [...path, event]));
    for (const path of paths) {
      const state = replay(path).state;
      assert.ok(!questions.has(state), `prepared → ${path.join(' → ')} reached ${state}`);
      checked++;
    }
  }
  assert.ok(checked > 10, `${checked} paths`);
});

test('the invitation gate: a refused code can be typed again; the token it is exchanged for is kept for sending', () => {
  const flow = opened({ invitation: true });
  assert.equal(flow.context.invitation, true);
  assert.equal(flow.context.token, null);
  flow.dispatch('refuseCode', { message: 'Please enter your invitation code.' });
  assert.equal(flow.state, STATES.invitationRefused);
  flow.dispatch('checkCode');
  assert.equal(flow.context.error, null, 'checking again clears the refusal');
  flow.dispatch('refuseCode', { message: 'used' });
  assert.equal(flow.context.error, 'used');
  flow.dispatch('checkCode');
  assertRefused(flow, 'checkCode', {}, /state "checkingCode"/);
  assertRefused(flow, 'review', { read: READ }, /state "checkingCode"/);
  flow.dispatch('issued', { token: TOKEN });
  assert.equal(flow.state, STATES.answering);
  assert.deepEqual(flow.context.token, TOKEN);
  assert.equal(flow.context.error, null);
  assert.equal(Object.hasOwn(flow.context, 'code'), false, 'the flow keeps no code');
});

test('a refused Send keeps the report; a model whose round moved on gets the renewed report, same answers', () => {
  const flow = preparedFlow();
  flow.dispatch('send');
  flow.dispatch('sendFailed', { message: 'closed' });
  assert.equal(flow.state, STATES.prepared);
  assert.equal(flow.context.error, 'closed');
  assert.equal(flow.context.report.reportText, REPORT);
  flow.dispatch('send');
  flow.dispatch('renewed', { reportText: RENEWED, notice: 'The model moved on.' });
  assert.equal(flow.state, STATES.prepared);
  assert.deepEqual(flow.context.report, { reportText: RENEWED, answers: READ.answers, restored: false, notice: 'The model moved on.' });
  assertRefused(flow, 'renewed', { reportText: REPORT, notice: '' }, /state "prepared"/);
});

test('a preview never sends', () => {
  const flow = preparedFlow({ preview: true });
  assertRefused(flow, 'send', {}, /a preview sends nothing/);
  assert.equal(flow.refusal('send'), 'a preview sends nothing');
});

test('another tab: its report replaces a draw still running; its Send stops this page', () => {
  const flow = opened();
  flow.dispatch('review', { read: READ });
  flow.dispatch('prepare');
  flow.dispatch('preparedElsewhere', { reportText: REPORT });
  assert.equal(flow.state, STATES.prepared);
  assert.equal(flow.context.report.restored, true);
  assert.equal(flow.can('prepared'), false, 'the draw that finishes now is dropped');
  const date = new Date('2026-03-04T05:06:07Z');
  flow.dispatch('answeredElsewhere', { date });
  assert.equal(flow.state, STATES.alreadyAnswered);
  assert.equal(flow.context.answeredOn, date);
  assert.equal(opened({ invitation: true }).can('answeredElsewhere'), false, 'the gate has no questions to stop');
});

test('leaving warns only when something would be lost', () => {
  const flow = opened();
  assert.equal(flow.warnsOnLeave(), false, 'nothing answered yet');
  flow.dispatch('edit');
  assert.equal(flow.warnsOnLeave(), true, 'answers given, no report');
  flow.dispatch('review', { read: READ });
  assert.equal(flow.warnsOnLeave(), true);
  const prepared = preparedFlow();
  assert.equal(prepared.warnsOnLeave(), true, 'a report not sent');
  prepared.dispatch('send');
  assert.equal(prepared.warnsOnLeave(), true, 'a report being sent');
  prepared.dispatch('sent');
  assert.equal(prepared.warnsOnLeave(), false);
  assert.equal(preparedFlow({ preview: true }).warnsOnLeave(), false, 'a preview stores and sends nothing');
  const other = preparedFlow();
  other.dispatch('answeredElsewhere', { date: new Date() });
  assert.equal(other.warnsOnLeave(), false);
});

// An invitation survey's page, as far as its token goes: the gate exchanges
// the code for a token (invitation-token.js); the report goes with it.
function gated(facts = {}) {
  const flow = opened({ invitation: true, ...facts });
  flow.dispatch('checkCode');
  return flow;
}

test('an invitation survey opens without a gate when this device holds its token; a report kept without one waits for it', () => {
  const kept = opened({ invitation: true, token: TOKEN });
  assert.equal(kept.state, STATES.answering, 'a reload or a second tab reuses the token');
  assert.deepEqual(kept.context.token, TOKEN);
  const restored = opened({ invitation: true, token: TOKEN, restored: REPORT });
  assert.equal(restored.state, STATES.prepared);
  assert.equal(restored.can('send'), true);
  // A report prepared before its token was refused: the gate first, the report held.
  const held = opened({ invitation: true, restored: REPORT });
  assert.equal(held.state, STATES.invitation);
  assert.equal(held.context.held.reportText, REPORT);
  held.dispatch('checkCode');
  held.dispatch('issued', { token: TOKEN });
  assert.equal(held.state, STATES.prepared, 'never a second draw: the held report comes back');
  assert.equal(held.context.report.reportText, REPORT);
  assert.equal(held.context.report.restored, true);
  assert.equal(held.context.held, null);
  assert.equal(opened({ invitation: true, restored: REPORT }, { preview: true }).state, STATES.prepared, 'a preview has no gate');
  assert.throws(() => gated().dispatch('issued', { token: { input: 'aa' } }), FlowError, 'a token needs its output');
});

test('a token request without an answer can be retried (the same element); nothing else leaves that state', () => {
  const flow = gated();
  flow.dispatch('issuanceFailed', { message: 'Could not reach the server.' });
  assert.equal(flow.state, STATES.issuanceFailed);
  assert.equal(flow.context.error, 'Could not reach the server.');
  assertRefused(flow, 'checkCode', {}, /state "issuanceFailed"/);
  assertRefused(flow, 'review', { read: READ }, /state "issuanceFailed"/);
  assertRefused(flow, 'issued', { token: TOKEN }, /state "issuanceFailed"/);
  flow.dispatch('retry');
  assert.equal(flow.state, STATES.checkingCode);
  assert.equal(flow.context.error, null);
  assertRefused(flow, 'retry', {}, /state "checkingCode"/);
  flow.dispatch('issuanceFailed', { message: 'again' });
  flow.dispatch('retry');
  flow.dispatch('issued', { token: TOKEN });
  assert.equal(flow.state, STATES.answering);
  // A refusal after a retry (the code was used elsewhere): back to typing a code.
  const refused = gated();
  refused.dispatch('issuanceFailed', { message: 'x' });
  refused.dispatch('retry');
  refused.dispatch('refuseCode', { message: 'This invitation has already been used' });
  assert.equal(refused.state, STATES.invitationRefused);
  assert.equal(refused.can('checkCode'), true);
});

test('a proof that does not verify stops the page: nothing follows, the reason is kept for the disclosure', () => {
  const flow = gated();
  flow.dispatch('unverified', { message: 'This page stops here.', detail: 'proof does not verify' });
  assert.equal(flow.state, STATES.invitationUnverified);
  assert.equal(flow.context.error, 'This page stops here.');
  assert.equal(flow.context.detail, 'proof does not verify');
  assert.equal(flow.context.token, null);
  for (const event of EVENT_NAMES) assert.equal(flow.can(event), false, `nothing follows an unverified proof: ${event}`);
});

test('from the gate, the questions are reached only through a token', () => {
  // Every sequence of up to five allowed events from the gate.
  const data = { message: 'm', detail: 'd', token: TOKEN, read: READ, reportText: REPORT, date: new Date() };
  const replay = (path) => {
    const flow = opened({ invitation: true });
    for (const event of path) flow.dispatch(event, data);
    return flow;
  };
  let paths = [[]];
  let checked = 0;
  for (let depth = 0; depth < 5; depth++) {
    paths = paths.flatMap((path) => EVENT_NAMES.filter((event) => replay(path).can(event)).map((event) => [...path, event]));
    for (const path of paths) {
      const flow = replay(path);
      if ([STATES.answering, STATES.reviewing, STATES.preparing, STATES.prepared, STATES.sending].includes(flow.state)) {
        assert.ok(path.includes('issued'), `gate → ${path.join(' → ')} reached ${flow.state} without a token`);
        // …and holds it, unless the server refused it at Send (then Send is refused too).
        if (path.at(-1) === 'tokenRefused') assert.equal(flow.can('send'), false);
        else assert.deepEqual(flow.context.token, TOKEN, path.join(' → '));
      }
      checked++;
    }
  }
  assert.ok(checked > 20, `${checked} paths`);
});

test('an invitation report is sent only with a token; a refused token is dropped and the report kept', () => {
  const flow = opened({ invitation: true, token: TOKEN });
  flow.dispatch('review', { read: READ });
  flow.dispatch('prepare');
  flow.dispatch('prepared', { reportText: REPORT, answers: READ.answers });
  flow.dispatch('send');
  flow.dispatch('tokenRefused', { message: 'This invitation has already been used to send a report' });
  assert.equal(flow.state, STATES.prepared);
  assert.equal(flow.context.token, null);
  assert.equal(flow.context.report.reportText, REPORT, 'the report is kept');
  assert.equal(flow.context.error, 'This invitation has already been used to send a report');
  assertRefused(flow, 'send', {}, /an invitation survey sends only with a token/);
  assertRefused(flow, 'tokenRefused', { message: 'x' }, /state "prepared"/);
  // An open survey sends without one.
  const open = preparedFlow();
  assert.equal(open.context.token, null);
  assert.equal(open.can('send'), true);
});
