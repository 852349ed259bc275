// The survey page's exchange of an invitation code for a blind token
// (web/src/survey/invitation-token.js): what is stored when, what each
// request carries, the retry with the same blinded element after a lost
// answer, and the outcomes the page turns into words. The core and the server
// are stand-ins here (the arithmetic is the core's, tested with RFC 9497's
// vectors; the browser flow against the real server is tests/e2e).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTokenIssuer, keyFingerprint, tokenHeader } from '../../web/src/survey/invitation-token.js';

const KEY = { suite: 'ristretto255-SHA512', mode: 'voprf', public_key: '0123456789abcdef'.repeat(4) };

// A core whose draws are numbered (input i, blind i, element i) and whose
// finalize "verifies" when the proof names the element.
function fakeCore() {
  let drawn = 0;
  const finalized = [];
  return {
    drawn: () => drawn,
    finalized,
    tokenBlind() {
      drawn += 1;
      return { input: `in${drawn}`, blind: `blind${drawn}`, blinded_element: `el${drawn}` };
    },
    tokenFinalize(request) {
      finalized.push(request);
      if (request.proof.c !== `c-${request.blinded_element}`) throw new Error('proof does not verify');
      return { output: `out-${request.input}` };
    },
  };
}

// localStorage as the page uses it (prepared-report-store.js's functions).
function memoryStore(initial = null) {
  let value = initial;
  return {
    get value() {
      return value;
    },
    set value(next) {
      value = next;
    },
    load: () => ({
      pending: value?.state === 'pending' ? { code: value.code, input: value.input, blind: value.blind, blinded_element: value.blinded_element } : null,
      token: value?.state === 'issued' ? { input: value.input, output: value.output, public_key: value.public_key } : null,
    }),
    savePending: (pending) => { value = { state: 'pending', ...pending }; },
    saveToken: (token) => { value = { state: 'issued', ...token }; },
    forget: () => { value = null; },
  };
}

// The server: `answer(path, options, call)` decides; every request is recorded
// with what the store held when it was made.
function fakeServer(store, answer) {
  const calls = [];
  const request = async (path, options = {}) => {
    const call = { path, method: options.method ?? 'GET', json: options.json, stored: structuredClone(store.value) };
    calls.push(call);
    return answer(path, options, call, calls);
  };
  return { calls, request };
}

function failure(status, code = '', message = `status ${status}`) {
  return Object.assign(new Error(message), { status, code });
}

// The server's honest answer to POST /tokens.
const evaluate = (options) => ({ evaluated_element: `ev-${options.json.blinded_element}`, proof: { c: `c-${options.json.blinded_element}`, s: 's' } });
const honest = (path, options) => (path.endsWith('/invitation-key') ? KEY : evaluate(options));

const tokenPosts = (calls) => calls.filter((call) => call.path.endsWith('/tokens'));

test('a code is exchanged once: the pending issuance is stored before the code leaves, then only the token is kept', async () => {
  const core = fakeCore();
  const store = memoryStore();
  const server = fakeServer(store, honest);
  const issuer = createTokenIssuer({ surveyId: 's 1', core, store, request: server.request });
  const result = await issuer.obtain('CODE');
  assert.deepEqual(result, { outcome: 'issued', token: { input: 'in1', output: 'out-in1', public_key: KEY.public_key } });
  const [post] = tokenPosts(server.calls);
  assert.equal(post.path, '/api/surveys/s%201/tokens');
  assert.equal(post.method, 'POST');
  assert.deepEqual(post.json, { code: 'CODE', blinded_element: 'el1' }, 'the code and the blinded element, never the token input');
  assert.deepEqual(post.stored, { state: 'pending', code: 'CODE', input: 'in1', blind: 'blind1', blinded_element: 'el1' }, 'stored before the request');
  assert.equal(server.calls[0].path, '/api/surveys/s%201/invitation-key');
  assert.deepEqual(core.finalized[0], {
    input: 'in1', blind: 'blind1', blinded_element: 'el1', evaluated_element: 'ev-el1', proof: { c: 'c-el1', s: 's' }, public_key: KEY.public_key,
  });
  assert.deepEqual(store.value, { state: 'issued', input: 'in1', output: 'out-in1', public_key: KEY.public_key }, 'the code and the blind are gone');
  assert.equal(tokenHeader(result.token), 'in1.out-in1');
  assert.equal(keyFingerprint(KEY.public_key), '0123456789abcdef');

  // A reload, or a second tab: the stored token, no request, no draw.
  const again = fakeServer(store, honest);
  const reloaded = createTokenIssuer({ surveyId: 's 1', core, store, request: again.request });
  assert.deepEqual(await reloaded.obtain('CODE'), result);
  assert.deepEqual(again.calls, []);
  assert.equal(core.drawn(), 1);
});

test('a lost answer: the retry sends the same blinded element, here or after a reload, and draws nothing new', async () => {
  const core = fakeCore();
  const store = memoryStore();
  let drop = 2;
  const server = fakeServer(store, (path, options) => {
    if (path.endsWith('/tokens') && drop-- > 0) throw failure(0, 'network', 'Could not reach the server.');
    return honest(path, options);
  });
  const issuer = createTokenIssuer({ surveyId: 's', core, store, request: server.request });
  const first = await issuer.obtain('CODE');
  assert.equal(first.outcome, 'failed');
  assert.equal(first.error.message, 'Could not reach the server.');
  assert.equal(store.value.state, 'pending', 'the pending issuance is kept');
  assert.equal((await issuer.retry()).outcome, 'failed');
  // The page reloaded: a new issuer finds the pending issuance (no code needed).
  const reloaded = createTokenIssuer({ surveyId: 's', core, store, request: server.request });
  const issued = await reloaded.obtain(null);
  assert.equal(issued.outcome, 'issued');
  assert.deepEqual(tokenPosts(server.calls).map((call) => call.json), Array(3).fill({ code: 'CODE', blinded_element: 'el1' }));
  assert.equal(core.drawn(), 1);
  // A server error (5xx) is retried the same way.
  const busyStore = memoryStore();
  const busy = fakeServer(busyStore, (path, options, call, calls) => {
    if (path.endsWith('/tokens') && tokenPosts(calls).length === 1) throw failure(503, 'unavailable');
    return honest(path, options);
  });
  const busyIssuer = createTokenIssuer({ surveyId: 's', core: fakeCore(), store: busyStore, request: busy.request });
  assert.equal((await busyIssuer.obtain('C')).outcome, 'failed');
  assert.equal((await busyIssuer.retry()).outcome, 'issued');
});

test('a storage that keeps nothing: the retry on the same page still sends the same element', async () => {
  const core = fakeCore();
  const store = { load: () => ({ pending: null, token: null }), savePending() {}, saveToken() {}, forget() {} };
  let drop = 1;
  const server = fakeServer(memoryStore(), (path, options) => {
    if (path.endsWith('/tokens') && drop-- > 0) throw failure(0, 'network');
    return honest(path, options);
  });
  const issuer = createTokenIssuer({ surveyId: 's', core, store, request: server.request });
  assert.equal((await issuer.obtain('CODE')).outcome, 'failed');
  assert.equal((await issuer.retry()).outcome, 'issued');
  assert.deepEqual(tokenPosts(server.calls).map((call) => call.json.blinded_element), ['el1', 'el1']);
});

test('a refused code leaves nothing stored; a proof that does not verify is not a token', async () => {
  const store = memoryStore();
  const server = fakeServer(store, (path) => {
    if (path.endsWith('/tokens')) throw failure(403, 'invitation_invalid');
    return KEY;
  });
  const issuer = createTokenIssuer({ surveyId: 's', core: fakeCore(), store, request: server.request });
  const refused = await issuer.obtain('USED');
  assert.equal(refused.outcome, 'refused');
  assert.equal(refused.error.code, 'invitation_invalid');
  assert.equal(store.value, null);
  assert.deepEqual(await issuer.retry(), { outcome: 'noCode' });
  assert.deepEqual(await issuer.obtain(null), { outcome: 'noCode' });

  const forged = memoryStore();
  const lying = fakeServer(forged, (path, options) => (path.endsWith('/invitation-key') ? KEY : { ...evaluate(options), proof: { c: 'forged', s: 's' } }));
  const result = await createTokenIssuer({ surveyId: 's', core: fakeCore(), store: forged, request: lying.request }).obtain('CODE');
  assert.equal(result.outcome, 'unverified');
  assert.equal(result.error.message, 'proof does not verify');
  assert.equal(result.publicKey, KEY.public_key);
  assert.equal(forged.value.state, 'pending', 'no token is stored from an unverified answer');
});

test('a pending issuance for an older code that is refused gives way to the code given now', async () => {
  const core = fakeCore();
  const store = memoryStore({ state: 'pending', code: 'OLD', input: 'in0', blind: 'blind0', blinded_element: 'el0' });
  const server = fakeServer(store, (path, options) => {
    if (path.endsWith('/tokens') && options.json.code === 'OLD') throw failure(403, 'invitation_invalid');
    return honest(path, options);
  });
  const result = await createTokenIssuer({ surveyId: 's', core, store, request: server.request }).obtain('NEW');
  assert.equal(result.outcome, 'issued');
  assert.deepEqual(tokenPosts(server.calls).map((call) => call.json), [
    { code: 'OLD', blinded_element: 'el0' }, { code: 'NEW', blinded_element: 'el1' },
  ]);
});

test('two tabs exchanging one code at once: the refused one takes the other tab\'s token or pending issuance', async () => {
  // Tab B drew and stored its pending issuance after tab A's; A's element is refused.
  const core = fakeCore();
  const store = memoryStore();
  const server = fakeServer(store, (path, options, call, calls) => {
    if (path.endsWith('/tokens') && tokenPosts(calls).length === 1) {
      store.value = { state: 'pending', code: 'CODE', input: 'inB', blind: 'blindB', blinded_element: 'elB' };
      throw failure(403, 'invitation_invalid');
    }
    return honest(path, options);
  });
  const result = await createTokenIssuer({ surveyId: 's', core, store, request: server.request }).obtain('CODE');
  assert.deepEqual(result.token, { input: 'inB', output: 'out-inB', public_key: KEY.public_key });
  assert.deepEqual(tokenPosts(server.calls).map((call) => call.json.blinded_element), ['el1', 'elB']);

  // Tab B already holds the token: A uses it, and does not forget it.
  const done = memoryStore();
  const doneServer = fakeServer(done, (path) => {
    if (path.endsWith('/tokens')) {
      done.value = { state: 'issued', input: 'inB', output: 'outB', public_key: KEY.public_key };
      throw failure(403, 'invitation_invalid');
    }
    return KEY;
  });
  const taken = await createTokenIssuer({ surveyId: 's', core: fakeCore(), store: done, request: doneServer.request }).obtain('CODE');
  assert.deepEqual(taken, { outcome: 'issued', token: { input: 'inB', output: 'outB', public_key: KEY.public_key } });
  assert.equal(done.value.state, 'issued');
});
