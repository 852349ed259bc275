// Blind tokens (issue 30) against the real server and a real SQLite file,
// with the page's client (the WebAssembly core): a code buys exactly one
// token (also under 20 concurrent issuances), a retried issuance is answered
// again, a token sends exactly one report (also under 20 concurrent reports),
// a token of another survey or a forged one is refused, the old header is
// refused with what to do, and a survey made by the previous schema keeps
// working through tokens.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';

import {
  DEMO_REPORT, bearer, get, makeTempDir, postJson, readDemoSurvey, removeDir, sqlite, sqliteOnly, startServer, storeQuery,
} from './server_harness.mjs';
import { core, finalize, issueToken, publicKey, requestEvaluation, sendWithToken } from './token_client.mjs';

const reportFor = (id) => ({ ...DEMO_REPORT, survey: id });
const invitationSurvey = (id) => ({ ...readDemoSurvey(), id, access: 'invitation', results: 'admin' });

describe('blind tokens', () => {
  let server;
  before(async () => {
    server = await startServer({ args: ['--demo', 'examples/demo-survey.json'] });
    for (const id of ['tok', 'other']) {
      assert.equal((await postJson(`${server.url}/api/surveys`, invitationSurvey(id), bearer(server.token))).status, 201);
    }
  });
  after(async () => { await server.stop(); removeDir(server.dataDir); });

  const codes = async (count, id = 'tok') =>
    (await postJson(`${server.url}/api/surveys/${id}/invitations`, { count }, bearer(server.token))).body.codes;
  const counts = async (id = 'tok') => (await get(`${server.url}/api/surveys/${id}/invitations`, bearer(server.token))).body;
  const respondents = async (id = 'tok') =>
    (await get(`${server.url}/api/surveys`, bearer(server.token))).body.surveys.find((s) => s.id === id).respondents;

  it('publishes each invitation survey\'s own public key; an open survey has none', async () => {
    const key = await get(`${server.url}/api/surveys/tok/invitation-key`);
    assert.equal(key.status, 200);
    assert.equal(key.body.suite, 'ristretto255-SHA512');
    assert.equal(key.body.mode, 'voprf');
    assert.match(key.body.public_key, /^[0-9a-f]{64}$/);
    assert.notEqual(await publicKey(server.url, 'other'), key.body.public_key);
    const open = await get(`${server.url}/api/surveys/demo/invitation-key`);
    assert.equal(open.status, 400);
    assert.equal(open.body.error.code, 'invalid_request');
    assert.equal((await get(`${server.url}/api/surveys/nope/invitation-key`)).status, 404);
    // The secret key never leaves the server: it is in the database only.
    const secret = storeQuery(server.dataDir, {
      sqlite: "SELECT hex(secret) FROM survey_keys WHERE survey_id = 'tok'",
      postgres: "SELECT upper(encode(secret, 'hex')) FROM survey_keys WHERE survey_id = 'tok'" });
    if (secret !== null) assert.match(secret, /^[0-9A-F]{64}$/);
  });

  it('20 concurrent issuances with different elements for one code: one 200, nineteen 403, the code used once', async () => {
    const [code] = await codes(1);
    const before = await counts();
    const responses = await Promise.all(Array.from({ length: 20 }, () => requestEvaluation(server.url, 'tok', code, core.tokenBlind())));
    const statuses = responses.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, ...Array(19).fill(403)]);
    for (const r of responses.filter((r) => r.status === 403)) assert.equal(r.body.error.code, 'invitation_invalid');
    assert.equal((await counts()).used, before.used + 1);
  });

  it('20 concurrent issuances with the same element: all 200 with the same evaluated element, the code used once', async () => {
    const [code] = await codes(1);
    const before = await counts();
    const blinded = core.tokenBlind();
    const responses = await Promise.all(Array.from({ length: 20 }, () => requestEvaluation(server.url, 'tok', code, blinded)));
    assert.deepEqual(responses.map((r) => r.status), Array(20).fill(200));
    assert.equal(new Set(responses.map((r) => r.body.evaluated_element)).size, 1);
    const key = await publicKey(server.url, 'tok');
    // Each answer verifies (a fresh proof each time) and unblinds to the same token.
    assert.equal(new Set(responses.map((r) => finalize(blinded, r.body, key).output)).size, 1);
    assert.equal((await counts()).used, before.used + 1);
  });

  it('an issuance whose answer was lost is answered again for the same element; the code is used once', async () => {
    const [code] = await codes(1);
    const before = await counts();
    const blinded = core.tokenBlind();
    // Sent on a raw socket, which is destroyed unread once the code is spent.
    const body = JSON.stringify({ code, blinded_element: blinded.blinded_element });
    const socket = net.connect(server.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`POST /api/surveys/tok/tokens HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    for (let i = 0; i < 200 && (await counts()).used === before.used; i++) await new Promise((r) => setTimeout(r, 10));
    socket.destroy();
    assert.equal((await counts()).used, before.used + 1, 'the first request spent the code');
    const retried = await requestEvaluation(server.url, 'tok', code, blinded);
    assert.equal(retried.status, 200);
    const again = await requestEvaluation(server.url, 'tok', code, blinded);
    assert.equal(again.body.evaluated_element, retried.body.evaluated_element);
    const other = await requestEvaluation(server.url, 'tok', code, core.tokenBlind());
    assert.equal(other.status, 403);
    const token = finalize(blinded, retried.body, await publicKey(server.url, 'tok'));
    assert.equal((await sendWithToken(server.url, 'tok', reportFor('tok'), token)).status, 201);
    assert.deepEqual(await counts(), { total: before.total, used: before.used + 1, unused: before.unused - 1 });
  });

  it('a token sends exactly one report under 20 concurrent reports', async () => {
    const [code] = await codes(1);
    const token = await issueToken(server.url, 'tok', code);
    const before = await respondents();
    const responses = await Promise.all(Array.from({ length: 20 }, () => sendWithToken(server.url, 'tok', reportFor('tok'), token)));
    assert.deepEqual(responses.map((r) => r.status).sort(), [201, ...Array(19).fill(409)]);
    const used = responses.find((r) => r.status === 409).body.error;
    assert.equal(used.code, 'token_used');
    assert.equal(used.message, 'this invitation has already been used to send a report');
    assert.equal(await respondents(), before + 1);
    // The token's hash, not the token, is stored; the code's hash is nowhere near it.
    const tokenHash = createHash('sha256').update(Buffer.from(token.input, 'hex')).digest('hex');
    const stored = storeQuery(server.dataDir, `SELECT COUNT(*) FROM spent_tokens WHERE survey_id = 'tok' AND token_hash = '${tokenHash}'`);
    if (stored !== null) assert.equal(stored, '1');
  });

  it('refuses a token of another survey, forged tokens, malformed ones, and none', async () => {
    const [otherCode] = await codes(1, 'other');
    const foreign = await issueToken(server.url, 'other', otherCode);
    const refused = await sendWithToken(server.url, 'tok', reportFor('tok'), foreign);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'token_invalid');
    const [code] = await codes(1);
    const good = await issueToken(server.url, 'tok', code);
    const forged = [
      `${randomBytes(32).toString('hex')}.${randomBytes(64).toString('hex')}`,  // a random output
      `${randomBytes(32).toString('hex')}.${good.output}`,                      // another input's output
      `${good.input}.${randomBytes(64).toString('hex')}`,
      `${good.input}`, `${good.input}.${good.output.slice(2)}`, 'not a token',
    ];
    for (const header of forged) {
      const response = await sendWithToken(server.url, 'tok', reportFor('tok'), header);
      assert.equal(response.status, 403, header);
      assert.equal(response.body.error.code, 'token_invalid', header);
    }
    const none = await sendWithToken(server.url, 'tok', reportFor('tok'), null);
    assert.equal(none.status, 403);
    assert.equal(none.body.error.code, 'invitation_required');
    assert.match(none.body.error.message, /X-Invitation-Token/);
    // None of them spent the good token.
    assert.equal((await sendWithToken(server.url, 'tok', reportFor('tok'), good)).status, 201);
  });

  it('refuses a report that still carries X-Invitation-Code, saying what to do, and spends nothing', async () => {
    const [code] = await codes(1);
    const before = await counts();
    const response = await postJson(`${server.url}/api/surveys/tok/reports`, reportFor('tok'), { 'X-Invitation-Code': code });
    assert.equal(response.status, 400);
    assert.equal(response.body.error.code, 'invitation_code_not_accepted');
    assert.match(response.body.error.message, /token when it opens\. Reload the survey page/);
    assert.deepEqual(await counts(), before);
    assert.equal((await postJson(`${server.url}/api/surveys/tok/invitations/check`, {}, { 'X-Invitation-Code': code })).status, 200);
  });

  it('refuses malformed issuance requests naming the field, spending nothing', async () => {
    const [code] = await codes(1);
    const before = await counts();
    const send = (body) => postJson(`${server.url}/api/surveys/tok/tokens`, body);
    const cases = [
      [{ code, blinded_element: 'zz' }, /^blinded_element: /],
      [{ code, blinded_element: 'ff'.repeat(32) }, /^blinded_element: /],  // not a group element
      [{ code, blinded_element: '00'.repeat(32) }, /^blinded_element: /],  // the identity
      [{ code }, /^blinded_element: /],
      [{ blinded_element: core.tokenBlind().blinded_element }, /^code: /],
      [{ code, blinded_element: core.tokenBlind().blinded_element, extra: 1 }, /extra/],
    ];
    for (const [body, message] of cases) {
      const response = await send(body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal(response.body.error.code, 'invalid_request');
      assert.match(response.body.error.message, message);
    }
    const unknown = await send({ code: 'a'.repeat(26), blinded_element: core.tokenBlind().blinded_element });
    assert.equal(unknown.status, 403);
    assert.equal(unknown.body.error.code, 'invitation_invalid');
    assert.deepEqual(await counts(), before);
    // Closed: refused, nothing spent; reopened, the code works.
    const status = (value) => postJson(`${server.url}/api/surveys/tok/status`, { status: value }, bearer(server.token));
    assert.equal((await status('closed')).status, 200);
    const closed = await requestEvaluation(server.url, 'tok', code, core.tokenBlind());
    assert.equal(closed.status, 409);
    assert.equal(closed.body.error.code, 'survey_closed');
    assert.deepEqual(await counts(), before);
    assert.equal((await status('open')).status, 200);
    await issueToken(server.url, 'tok', code);
    assert.equal((await counts()).used, before.used + 1);
  });
});

// A data directory as the previous release (schema 5) left it: an invitation
// survey with no key, one code used by a report (sealed), one unused.
const LEGACY_SCHEMA5 = `
CREATE TABLE surveys (id TEXT PRIMARY KEY, version INTEGER NOT NULL, definition TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE reports (survey_id TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE invitations (survey_id TEXT NOT NULL, code_hash TEXT NOT NULL, used INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (survey_id, code_hash)) WITHOUT ROWID;
CREATE TABLE sealed_reports (id INTEGER PRIMARY KEY, survey_id TEXT NOT NULL, body TEXT NOT NULL);
CREATE TABLE survey_status (survey_id TEXT PRIMARY KEY, closed INTEGER NOT NULL DEFAULT 0, closes_at TEXT) WITHOUT ROWID;
CREATE TABLE deleted_surveys (survey_id TEXT PRIMARY KEY, deleted_at TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE release_ledgers (survey_id TEXT NOT NULL, question_id TEXT NOT NULL, ledger TEXT NOT NULL,
  PRIMARY KEY (survey_id, question_id)) WITHOUT ROWID;
PRAGMA user_version=5;`;

it('an invitation survey made by the previous schema keeps working: its unused code buys a token, its used code stays used',
  { skip: sqliteOnly('a database made by SQLite\'s previous schema') || (spawnSync('sqlite3', ['-version']).error ? 'no sqlite3 CLI' : false) }, async () => {
    const dataDir = makeTempDir();
    const hash = (code) => createHash('sha256').update(code).digest('hex');
    const [used, unused] = ['a'.repeat(26), 'b'.repeat(26)];
    const definition = JSON.stringify(invitationSurvey('legacy')).replaceAll("'", "''");
    const sql = `${LEGACY_SCHEMA5}
      INSERT INTO surveys VALUES ('legacy', 1, '${definition}', '2026-11-01T00:00:00Z');
      INSERT INTO invitations VALUES ('legacy', '${hash(used)}', 1), ('legacy', '${hash(unused)}', 0);
      INSERT INTO sealed_reports VALUES (4242, 'legacy', '${JSON.stringify(reportFor('legacy'))}');`;
    const made = spawnSync('sqlite3', [path.join(dataDir, 'deniable.sqlite3')], { input: sql, encoding: 'utf8' });
    assert.equal(made.status, 0, made.stderr);
    fs.chmodSync(path.join(dataDir, 'deniable.sqlite3'), 0o600);
    const server = await startServer({ dataDir });
    try {
      const surveys = async () => (await get(`${server.url}/api/surveys`, bearer(server.token))).body.surveys;
      assert.equal((await surveys())[0].respondents, 1);
      const refused = await requestEvaluation(server.url, 'legacy', used, core.tokenBlind());
      assert.equal(refused.status, 403);
      const token = await issueToken(server.url, 'legacy', unused);
      assert.equal((await sendWithToken(server.url, 'legacy', reportFor('legacy'), token)).status, 201);
      assert.equal((await surveys())[0].respondents, 2);
      assert.deepEqual((await get(`${server.url}/api/surveys/legacy/invitations`, bearer(server.token))).body,
        { total: 2, used: 2, unused: 0 });
      assert.equal(sqlite(dataDir, "SELECT COUNT(*) FROM sqlite_master WHERE name = 'sealed_reports'"), '0');
      const key = sqlite(dataDir, "SELECT hex(secret) FROM survey_keys WHERE survey_id = 'legacy'");
      // Restarted, it keeps the key it was given: the token issued before still verifies.
      await server.stop();
      const again = await startServer({ dataDir });
      try {
        assert.equal(sqlite(dataDir, "SELECT hex(secret) FROM survey_keys WHERE survey_id = 'legacy'"), key);
        const response = await sendWithToken(again.url, 'legacy', reportFor('legacy'), token);
        assert.equal(response.status, 409);
        assert.equal(response.body.error.code, 'token_used');
      } finally {
        await again.stop();
      }
    } finally {
      await server.stop();
      removeDir(dataDir);
    }
  });

it('an issued code stays spent after kill -9, and the same element gets the same evaluation from the restarted server', async () => {
  const dataDir = makeTempDir();
  try {
    let server = await startServer({ dataDir });
    assert.equal((await postJson(`${server.url}/api/surveys`, invitationSurvey('kept'), bearer(server.token))).status, 201);
    const [code] = (await postJson(`${server.url}/api/surveys/kept/invitations`, { count: 1 }, bearer(server.token))).body.codes;
    const blinded = core.tokenBlind();
    const first = await requestEvaluation(server.url, 'kept', code, blinded);
    assert.equal(first.status, 200);
    await server.kill9();
    server = await startServer({ dataDir });
    try {
      assert.equal((await requestEvaluation(server.url, 'kept', code, core.tokenBlind())).status, 403);
      const again = await requestEvaluation(server.url, 'kept', code, blinded);
      assert.equal(again.status, 200);
      assert.equal(again.body.evaluated_element, first.body.evaluated_element);
      const token = finalize(blinded, again.body, await publicKey(server.url, 'kept'));
      assert.equal((await sendWithToken(server.url, 'kept', reportFor('kept'), token)).status, 201);
    } finally {
      await server.stop();
    }
  } finally {
    removeDir(dataDir);
  }
});
