// The survey page's flow (web/src/survey/flow.js): the states the page can be
// in, the events that move it, and the ones it refuses (dispatch throws a
// FlowError and changes nothing). Plain JavaScript: no browser, no server.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSurveyFlow, EVENT_NAMES, FlowError, STATES } from '../../web/src/survey/flow.js';

const REPORT = '{"survey":"s","version":1,"responses":{"q":1}}';
const RENEWED = '{"survey":"s","version":1,"responses":{"q":2}}';
const READ = { answers: { q: 'a' }, unanswered: [], skipped: [] };

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
  assert.equal(opened({ restored: REPORT, answered, accepting: false, invitation: true }).state, STATES.prepared);
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
  assert.deepEqual(flow.context.report, { reportText: REPORT, answers: READ.answers, restored: false, notice: null, code: null });
  flow.dispatch('send', { code: 'ABC' });
  assert.equal(flow.context.report.code, 'ABC');
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
  const data = { reportText: RENEWED, notice: 'moved on', message: 'refused', date: new Date(), code: 'ABC' };
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

test('the invitation gate: a refused code can be typed again; the accepted one is kept for sending', () => {
  const flow = opened({ invitation: true });
  flow.dispatch('refuseCode', { message: 'Please enter your invitation code.' });
  assert.equal(flow.state, STATES.invitationRefused);
  flow.dispatch('checkCode');
  assert.equal(flow.context.error, null, 'checking again clears the refusal');
  flow.dispatch('refuseCode', { message: 'used' });
  assert.equal(flow.context.error, 'used');
  flow.dispatch('checkCode');
  assertRefused(flow, 'checkCode', {}, /state "checkingCode"/);
  assertRefused(flow, 'review', { read: READ }, /state "checkingCode"/);
  flow.dispatch('acceptCode', { code: 'ABC' });
  assert.equal(flow.state, STATES.answering);
  assert.equal(flow.context.code, 'ABC');
});

test('a refused Send keeps the report; a model whose round moved on gets the renewed report, same answers', () => {
  const flow = preparedFlow();
  flow.dispatch('send', { code: null });
  flow.dispatch('sendFailed', { message: 'closed' });
  assert.equal(flow.state, STATES.prepared);
  assert.equal(flow.context.error, 'closed');
  assert.equal(flow.context.report.reportText, REPORT);
  flow.dispatch('send', { code: 'XYZ' });
  flow.dispatch('renewed', { reportText: RENEWED, notice: 'The model moved on.' });
  assert.equal(flow.state, STATES.prepared);
  assert.deepEqual(flow.context.report, { reportText: RENEWED, answers: READ.answers, restored: false, notice: 'The model moved on.', code: 'XYZ' });
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
