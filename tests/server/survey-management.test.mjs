// Managing published surveys over HTTP (issue 15): close and reopen (reports
// refused with a clear message while closed, also from a closing time), the
// status every page can read, deletion with confirmation (reports, codes and
// releases gone, the id never reused), an invitation code checked without
// spending it, and options that differ only in letter case refused.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import {
  DEMO_REPORT, DEMO_SURVEY, bearer, get, makeTempDir, postJson, readDemoSurvey, removeDir, startServer, storeQuery,
} from './server_harness.mjs';
import { issueToken } from './token_client.mjs';

describe('survey management', () => {
  let server;
  const dataDir = makeTempDir();
  before(async () => {
    server = await startServer({ dataDir });
    assert.equal((await postJson(`${server.url}/api/surveys`, readDemoSurvey(), bearer(server.token))).status, 201);
  });
  after(async () => { await server.stop(); removeDir(dataDir); });

  const setStatus = (body, id = 'demo') => postJson(`${server.url}/api/surveys/${id}/status`, body, bearer(server.token));
  const submit = () => postJson(`${server.url}/api/surveys/demo/reports`, DEMO_REPORT);

  it('is open by default and says so to anyone', async () => {
    const status = await get(`${server.url}/api/surveys/demo/status`);
    assert.equal(status.status, 200);
    assert.deepEqual(status.body, { survey: 'demo', status: 'open', closes_at: null, accepting: true });
    assert.equal((await submit()).status, 201);
  });

  it('closes and reopens for the admin only; a closed survey refuses reports with a clear message', async () => {
    assert.equal((await postJson(`${server.url}/api/surveys/demo/status`, { status: 'closed' })).status, 401);
    const closed = await setStatus({ status: 'closed' });
    assert.equal(closed.status, 200);
    assert.equal(closed.body.accepting, false);
    const refused = await submit();
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.code, 'survey_closed');
    assert.equal(refused.body.error.message, 'survey "demo" is closed: its organisers stopped collecting answers');
    const list = (await get(`${server.url}/api/surveys`, bearer(server.token))).body.surveys;
    assert.equal(list.find((s) => s.id === 'demo').status, 'closed');
    assert.equal((await setStatus({ status: 'open' })).body.accepting, true);
    assert.equal((await submit()).status, 201);
  });

  it('closes at a chosen time, and names a bad time', async () => {
    const bad = await setStatus({ status: 'open', closes_at: '2026-02-31T00:00:00Z' });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /^closes_at: must be a UTC time like "2026-12-01T18:00:00Z" or null/);
    assert.equal((await setStatus({ status: 'open', closes_at: '2099-01-01T00:00:00Z' })).body.accepting, true);
    assert.equal((await submit()).status, 201);
    const past = await setStatus({ status: 'open', closes_at: '2020-01-01T00:00:00Z' });
    assert.equal(past.body.accepting, false);
    const refused = await submit();
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.message, 'survey "demo" closed at 2020-01-01T00:00:00Z: it no longer accepts answers');
    assert.equal((await setStatus({ status: 'open', closes_at: null })).body.accepting, true);
  });

  it('keeps the status across a restart', async () => {
    await setStatus({ status: 'closed' });
    await server.stop();
    server = await startServer({ dataDir });
    assert.equal((await get(`${server.url}/api/surveys/demo/status`)).body.status, 'closed');
    assert.equal((await submit()).status, 409);
    await setStatus({ status: 'open' });
  });

  it('deletes a survey only with its id as confirmation, and never reuses the id', async () => {
    const survey = { ...readDemoSurvey(), id: 'doomed' };
    assert.equal((await postJson(`${server.url}/api/surveys`, survey, bearer(server.token))).status, 201);
    assert.equal((await postJson(`${server.url}/api/surveys/doomed/reports`, { ...DEMO_REPORT, survey: 'doomed' })).status, 201);
    const unconfirmed = await postJson(`${server.url}/api/surveys/doomed/delete`, { confirm: 'demo' }, bearer(server.token));
    assert.equal(unconfirmed.status, 400);
    assert.match(unconfirmed.body.error.message, /confirm: must be the survey's id, "doomed": deleting a survey deletes its reports/);
    const deleted = await postJson(`${server.url}/api/surveys/doomed/delete`, { confirm: 'doomed' }, bearer(server.token));
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.reports_deleted, 1);
    assert.equal((await get(`${server.url}/api/surveys/doomed`)).status, 404);
    const again = await postJson(`${server.url}/api/surveys`, survey, bearer(server.token));
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'survey_deleted');
    const rows = storeQuery(dataDir, "SELECT count(*) FROM reports WHERE survey_id = 'doomed'");
    if (rows !== null) assert.equal(rows, '0');
    // Gone after a restart too.
    await server.stop();
    server = await startServer({ dataDir });
    assert.equal((await get(`${server.url}/api/surveys/doomed`)).status, 404);
  });

  it('a deleted survey is not created again by --demo at the next start: its id is never reused', async () => {
    const dir = makeTempDir();
    let demo = await startServer({ dataDir: dir, args: ['--demo', DEMO_SURVEY] });
    try {
      assert.equal((await postJson(`${demo.url}/api/surveys/demo/delete`, { confirm: 'demo' }, bearer(demo.token))).status, 200);
      await demo.stop();
      demo = await startServer({ dataDir: dir, args: ['--demo', DEMO_SURVEY] });
      assert.equal((await get(`${demo.url}/api/surveys/demo`)).status, 404);
      assert.match(demo.output(), /demo survey "demo" was deleted: its id is not used again/);
    } finally {
      await demo.stop();
      removeDir(dir);
    }
  });

  it('a report committed while its survey is deleted is refused, not stored: the deletion counts exactly the reports acknowledged', async () => {
    // Four rounds of 300 reports in flight (bounded, to 127.0.0.1); the deletion is sent once the first is
    // acknowledged, while others wait in the writer's queue: those must be refused, not stored after the deletion.
    for (let round = 0; round < 4; round += 1) {
      const id = `racing-${round}`;
      assert.equal((await postJson(`${server.url}/api/surveys`, { ...readDemoSurvey(), id }, bearer(server.token))).status, 201);
      let firstAcknowledged;
      const acknowledged = new Promise((resolve) => { firstAcknowledged = resolve; });
      const sends = Array.from({ length: 300 }, () => postJson(`${server.url}/api/surveys/${id}/reports`, { ...DEMO_REPORT, survey: id })
        .then((response) => { if (response.status === 201) firstAcknowledged(); return response; }));
      await acknowledged;
      const deleted = await postJson(`${server.url}/api/surveys/${id}/delete`, { confirm: id }, bearer(server.token));
      assert.equal(deleted.status, 200);
      const responses = await Promise.all(sends);
      const stored = responses.filter((response) => response.status === 201).length;
      for (const response of responses.filter((r) => r.status !== 201)) {
        assert.ok(response.status === 409 || response.status === 404, `status ${response.status}: ${JSON.stringify(response.body)}`);
        assert.ok(['survey_deleted', 'survey_not_found'].includes(response.body.error.code), response.body.error.code);
      }
      assert.equal(deleted.body.reports_deleted, stored, `round ${round}: every acknowledged report was deleted, and only those`);
      const rows = storeQuery(dataDir, `SELECT count(*) FROM reports WHERE survey_id = '${id}'`);
      if (rows !== null) assert.equal(rows, '0', `round ${round}: no report of the deleted survey is on disk`);
    }
  });

  it('checks an invitation code without spending it', async () => {
    const survey = { ...readDemoSurvey(), id: 'invited', access: 'invitation' };
    assert.equal((await postJson(`${server.url}/api/surveys`, survey, bearer(server.token))).status, 201);
    const [code] = (await postJson(`${server.url}/api/surveys/invited/invitations`, { count: 1 }, bearer(server.token))).body.codes;
    const check = (headers) => postJson(`${server.url}/api/surveys/invited/invitations/check`, {}, headers);
    assert.equal((await check({})).body.error.code, 'invitation_required');
    assert.equal((await check({ 'X-Invitation-Code': 'aaaaaaaaaaaaaaaaaaaaaaaaaa' })).status, 403);
    for (let i = 0; i < 2; i += 1) assert.deepEqual((await check({ 'X-Invitation-Code': code })).body, { valid: true, needed: true });
    // Exchanged for a token (as the page does when it opens), the code is used.
    await issueToken(server.url, 'invited', code);
    const used = await check({ 'X-Invitation-Code': code });
    assert.equal(used.status, 403);
    assert.match(used.body.error.message, /unknown or has already been used/);
    assert.deepEqual((await postJson(`${server.url}/api/surveys/demo/invitations/check`, {})).body, { valid: true, needed: false });
  });

  it('refuses options that differ only in letter case or spaces', async () => {
    const survey = readDemoSurvey();
    survey.id = 'cases';
    survey.questions[0].options = ['Yes', ' yes'];
    const refused = await postJson(`${server.url}/api/surveys`, survey, bearer(server.token));
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.message,
      'questions[0].options[1]: " yes" is the same option as options[0] "Yes" (options must differ by more than letter case or spaces)');
  });
});
