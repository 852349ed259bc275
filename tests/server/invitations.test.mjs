// Invitation surveys: a code is needed, buys one token (the page's client,
// the WebAssembly core), which sends one report; the code is stored only as a
// hash, and nothing links a used code to the report its token came with.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';

import {
  DEMO_REPORT, DEMO_SURVEY, ON_POSTGRES, bearer, get, postJson, readDemoSurvey, removeDir, startServer, storeQuery,
} from './server_harness.mjs';
import { core, issueToken, requestEvaluation, sendWithToken } from './token_client.mjs';

const INVITED_REPORT = { ...DEMO_REPORT, survey: 'invited' };

describe('invitation surveys', () => {
  let server;
  before(async () => {
    server = await startServer({ args: ['--demo', DEMO_SURVEY] });
    const definition = { ...readDemoSurvey(), id: 'invited', access: 'invitation', results: 'admin' };
    assert.equal((await postJson(`${server.url}/api/surveys`, definition, bearer(server.token))).status, 201);
  });
  after(async () => { await server.stop(); removeDir(server.dataDir); });

  const invite = (count, headers = bearer(server.token), id = 'invited') =>
    postJson(`${server.url}/api/surveys/${id}/invitations`, { count }, headers);
  const submit = (token) => sendWithToken(server.url, 'invited', INVITED_REPORT, token);
  const exchange = (code) => requestEvaluation(server.url, 'invited', code, core.tokenBlind());

  it('creates codes for the admin only, 1 to 10000 at a time', async () => {
    assert.equal((await invite(2, {})).status, 401);
    const zero = await invite(0);
    assert.equal(zero.status, 400);
    assert.equal(zero.body.error.message, 'count: must be between 1 and 10000, but is 0');
    assert.equal((await invite(10001)).status, 400);
    const created = await invite(3);
    assert.equal(created.status, 201);
    assert.equal(created.body.codes.length, 3);
    for (const code of created.body.codes) assert.match(code, /^[a-z2-7]{26}$/);
    assert.equal(new Set(created.body.codes).size, 3);
  });

  it('refuses invitations for an open survey', async () => {
    const response = await invite(1, bearer(server.token), 'demo');
    assert.equal(response.status, 400);
    assert.match(response.body.error.message, /^access: /);
  });

  it('403 without a token; a code buys one token, which sends one report; the code buys no second token', async () => {
    const [code] = (await invite(1)).body.codes;
    const without = await submit();
    assert.equal(without.status, 403);
    assert.equal(without.body.error.code, 'invitation_required');
    const token = await issueToken(server.url, 'invited', code);
    assert.equal((await submit(token)).status, 201);
    const again = await submit(token);
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'token_used');
    const second = await exchange(code);
    assert.equal(second.status, 403);
    assert.equal(second.body.error.code, 'invitation_invalid');
    assert.equal((await exchange('a'.repeat(26))).status, 403);
    assert.equal((await exchange('not a code')).status, 403);
  });

  it('accepts a code typed in upper case with spaces around it', async () => {
    const [code] = (await invite(1)).body.codes;
    const token = await issueToken(server.url, 'invited', `  ${code.toUpperCase()} `);
    assert.equal((await submit(token)).status, 201);
  });

  it('spends a token once even under concurrent use, and stores nothing of the rejected reports', async () => {
    const [code] = (await invite(1)).body.codes;
    const token = await issueToken(server.url, 'invited', code);
    const countBefore = storeQuery(server.dataDir, "SELECT COUNT(*) FROM reports WHERE survey_id = 'invited'");
    const responses = await Promise.all(Array.from({ length: 8 }, () => submit(token)));
    const statuses = responses.map((r) => r.status).sort();
    assert.deepEqual(statuses, [201, 409, 409, 409, 409, 409, 409, 409]);
    const countAfter = storeQuery(server.dataDir, "SELECT COUNT(*) FROM reports WHERE survey_id = 'invited'");
    if (countBefore !== null) assert.equal(Number(countAfter), Number(countBefore) + 1);
  });

  it('stores only hashes, and no column links a used code to a report', async () => {
    const [code] = (await invite(1)).body.codes;
    const columns = (table) => storeQuery(server.dataDir, {
      sqlite: `SELECT group_concat(name, ',') FROM pragma_table_info('${table}')`,
      postgres: `SELECT string_agg(column_name, ',' ORDER BY ordinal_position) FROM information_schema.columns WHERE table_name = '${table}'`,
    });
    if (columns('invitations') === null) return;
    assert.equal(columns('invitations'), 'survey_id,code_hash,used,blinded_hash');
    assert.equal(columns('spent_tokens'), 'survey_id,token_hash');
    // PostgreSQL's reports have an arrival id (SQLite's rowid, hidden): it names no code or token.
    assert.equal(columns('reports'), ON_POSTGRES ? 'id,survey_id,body' : 'survey_id,body');
    const hash = createHash('sha256').update(code).digest('hex');
    assert.equal(storeQuery(server.dataDir, `SELECT used FROM invitations WHERE code_hash = '${hash}'`), '0');
    assert.equal(storeQuery(server.dataDir, `SELECT COUNT(*) FROM invitations WHERE code_hash = '${code}'`), '0');
    const blinded = core.tokenBlind();
    assert.equal((await requestEvaluation(server.url, 'invited', code, blinded)).status, 200);
    assert.equal(storeQuery(server.dataDir, `SELECT used FROM invitations WHERE code_hash = '${hash}'`), '1');
    const blindedHash = createHash('sha256').update(Buffer.from(blinded.blinded_element, 'hex')).digest('hex');
    assert.equal(storeQuery(server.dataDir, `SELECT blinded_hash FROM invitations WHERE code_hash = '${hash}'`), blindedHash);
  });
});

describe('invitation counts (GET /api/surveys/{id}/invitations)', () => {
  let server;
  before(async () => {
    server = await startServer({ args: ['--demo', DEMO_SURVEY] });
    const definition = { ...readDemoSurvey(), id: 'counted', access: 'invitation', results: 'admin' };
    assert.equal((await postJson(`${server.url}/api/surveys`, definition, bearer(server.token))).status, 201);
  });
  after(async () => { await server.stop(); removeDir(server.dataDir); });

  const counts = (headers = bearer(server.token), id = 'counted') => get(`${server.url}/api/surveys/${id}/invitations`, headers);

  it('says how many codes exist and how many are used, to the admin only, never the codes', async () => {
    assert.equal((await counts({})).status, 401);
    assert.equal((await counts(bearer(server.token), 'nope')).status, 404);
    assert.deepEqual((await counts()).body, { total: 0, used: 0, unused: 0 });
    const made = await postJson(`${server.url}/api/surveys/counted/invitations`, { count: 3 }, bearer(server.token));
    assert.equal(made.status, 201);
    const more = await postJson(`${server.url}/api/surveys/counted/invitations`, { count: 2 }, bearer(server.token));
    assert.equal(more.status, 201);
    // A code counts as used once it has bought its token (the report comes later, or never).
    await issueToken(server.url, 'counted', made.body.codes[1]);
    const after = await counts();
    assert.equal(after.status, 200);
    assert.deepEqual(after.body, { total: 5, used: 1, unused: 4 });
  });
});
