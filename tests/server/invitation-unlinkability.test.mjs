// Nothing the server receives, logs or stores pairs an invitation code with
// the report sent with its token (issue 30). The attacker holds the log of
// every request the server received (time, path, headers, body: each
// issuance with its code and blinded element, each report with its token),
// the server's answers, the database files afterwards and the survey's
// secret key (read from the database), and tries to pair each report with a
// code. Its strategies, all tried, in this order for each report:
//   1. the blinded element: HashToGroup(token input) (tokenBlindWith(input,
//      1)) compared with every blinded element issued, and its SHA-256 with
//      every invitation's blinded_hash in the database;
//   2. the evaluation: k * HashToGroup(input) (tokenBlindWith(input, k), k the
//      stolen key) compared with every evaluated element answered;
//   3. order and time: the i-th report with the i-th issuance, the time
//      order the log (and the reports' row order in the database) shows.
// N invitees first all take their tokens, then send their reports in a
// random order, apart in time: pairing then can do no better than chance.
// The number of reports a random pairing gets right is a permutation's fixed
// points, about Poisson(1): P(more than 6) = 8e-5; the report order is drawn
// from a fixed seed, so the bound is not a coin toss.
// The SAME attacker against a deliberately broken page (blind = 1, so the
// blinded element is HashToGroup(input) itself) pairs every report: the
// attack has teeth.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { it } from 'node:test';

import { ON_POSTGRES, bearer, get, postJson, removeDir, startServer, storeQuery } from './server_harness.mjs';
import { core } from './token_client.mjs';

const INVITEES = 30;
const CHANCE_BOUND = 6;
const BROKEN_BLIND = '01' + '00'.repeat(31);
const survey = (id) => ({
  format: 'deniable.survey/v1', id, version: 1, title: 'Sleep', results: 'admin', access: 'invitation',
  questions: [{ id: 'sleep', text: 'Hours of sleep?', type: 'numeric', range: [0, 12], mechanism: { name: 'square_wave', epsilon: 2 } }],
});
const reportOf = (id, value) => ({ survey: id, version: 1, responses: { sleep: [value] } });
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A seeded permutation (mulberry32, Fisher-Yates): the order reports are sent in.
function seededOrder(n, seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

// Every request the server received, with its answer, as a log would keep it.
function recorder(url) {
  const log = [];
  const send = async (method, pathname, body, headers = {}) => {
    const entry = { time: performance.now(), method, path: pathname, headers, body };
    const response = method === 'GET' ? await get(url + pathname, headers) : await postJson(url + pathname, body, headers);
    log.push({ ...entry, status: response.status, answer: response.body });
    return response;
  };
  return { log, send };
}

// One survey's run: every invitee takes a token (blindFor(i) blinds its
// input), then the reports go out in `order`. Returns the log, with the
// truth kept apart: who sent each report.
async function run(server, id, blindFor, order) {
  assert.equal((await postJson(`${server.url}/api/surveys`, survey(id), bearer(server.token))).status, 201);
  const codes = (await postJson(`${server.url}/api/surveys/${id}/invitations`, { count: INVITEES }, bearer(server.token))).body.codes;
  const { log, send } = recorder(server.url);
  const tokens = [];
  for (let i = 0; i < INVITEES; i++) {
    const publicKey = (await send('GET', `/api/surveys/${id}/invitation-key`)).body.public_key;
    const blinded = blindFor(i);
    const issued = await send('POST', `/api/surveys/${id}/tokens`, { code: codes[i], blinded_element: blinded.blinded_element });
    assert.equal(issued.status, 200);
    const { output } = core.tokenFinalize({ ...blinded, ...issued.body, public_key: publicKey });
    tokens.push(`${blinded.input}.${output}`);
  }
  const sender = [];
  for (const i of order) {
    await sleep(3);
    const sent = await send('POST', `/api/surveys/${id}/reports`, reportOf(id, 1 + i / 10), { 'X-Invitation-Token': tokens[i] });
    assert.equal(sent.status, 201);
    sender.push(codes[i]);
  }
  return { log, sender };
}

// The attacker: for each report in the log, the code it names (see the top).
function attack(log, database) {
  const issuances = log.filter((entry) => entry.path.endsWith('/tokens'));
  const reports = log.filter((entry) => entry.path.endsWith('/reports'));
  const byElement = new Map(issuances.map((entry) => [entry.body.blinded_element, entry.body.code]));
  const byEvaluation = new Map(issuances.map((entry) => [entry.answer.evaluated_element, entry.body.code]));
  const codeOfHash = new Map(issuances.map((entry) => [sha256(entry.body.code), entry.body.code]));
  const byStoredHash = new Map(database.invitations.map(([codeHash, blindedHash]) => [blindedHash, codeOfHash.get(codeHash)]));
  const strategies = { element: 0, stored: 0, evaluation: 0, order: 0 };
  const guesses = reports.map((report, rank) => {
    const input = report.headers['X-Invitation-Token'].split('.')[0];
    const point = core.tokenBlindWith(input, BROKEN_BLIND).blinded_element;  // HashToGroup(input)
    const keyed = core.tokenBlindWith(input, database.secret).blinded_element;  // k * HashToGroup(input)
    const found = [['element', byElement.get(point)], ['stored', byStoredHash.get(sha256(Buffer.from(point, 'hex')))],
      ['evaluation', byEvaluation.get(keyed)]].find(([, code]) => code !== undefined);
    const [strategy, code] = found ?? ['order', issuances[rank].body.code];
    strategies[strategy]++;
    return code;
  });
  return { guesses, strategies };
}

// What the database files give the attacker: the survey's secret key, each
// code's hash with the hash of the element it was spent for, and (unused by
// the pairing, which the log already orders) the reports in row order.
function readDatabase(dataDir, id) {
  const secret = storeQuery(dataDir, {
    sqlite: `SELECT lower(hex(secret)) FROM survey_keys WHERE survey_id = '${id}'`,
    postgres: `SELECT encode(secret, 'hex') FROM survey_keys WHERE survey_id = '${id}'` });
  const invitations = storeQuery(dataDir, `SELECT code_hash || ',' || blinded_hash FROM invitations WHERE survey_id = '${id}'`)
    .split('\n').map((line) => line.split(','));
  return { secret, invitations };
}

function score(guesses, sender) {
  return guesses.filter((code, k) => code === sender[k]).length;
}

it('an attacker with the request log, the database and the key pairs codes with reports no better than chance, '
  + 'and pairs them all when the page does not blind', { skip: !ON_POSTGRES && spawnSync('sqlite3', ['-version']).error ? 'no sqlite3 CLI' : false }, async () => {
  const server = await startServer();
  try {
    const order = seededOrder(INVITEES, 20261128);
    const honest = await run(server, 'invited', () => core.tokenBlind(), order);
    const broken = await run(server, 'broken', () => core.tokenBlindWith(core.tokenBlind().input, BROKEN_BLIND), order);
    await server.stop();
    for (const name of fs.readdirSync(server.dataDir)) assert.ok(fs.statSync(path.join(server.dataDir, name)));

    const honestAttack = attack(honest.log, readDatabase(server.dataDir, 'invited'));
    const correct = score(honestAttack.guesses, honest.sender);
    // Nothing but order is left to it, and the order says nothing.
    assert.deepEqual(honestAttack.strategies, { element: 0, stored: 0, evaluation: 0, order: INVITEES });
    assert.ok(correct <= CHANCE_BOUND, `the attacker paired ${correct} of ${INVITEES} codes with their reports`);

    const brokenAttack = attack(broken.log, readDatabase(server.dataDir, 'broken'));
    assert.equal(score(brokenAttack.guesses, broken.sender), INVITEES, 'the attack pairs every report of a page that does not blind');
    assert.equal(brokenAttack.strategies.element, INVITEES);

    // The stored reports carry no token, and no code or token hash appears in a report's row.
    const bodies = storeQuery(server.dataDir, "SELECT body FROM reports WHERE survey_id = 'invited'").split('\n');
    assert.equal(bodies.length, INVITEES);
    for (const body of bodies) assert.deepEqual(Object.keys(JSON.parse(body)).sort(), ['responses', 'survey', 'version']);
  } finally {
    await server.stop();
    removeDir(server.dataDir);
  }
});
