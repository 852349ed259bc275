// Hardening, second round (issue 27, items 4-8): a database file removed under
// the running server, a close racing reports in flight, concurrent deletions
// and releases racing a deletion, closing times read strictly as RFC 3339,
// CSV cells that a spreadsheet would run as formulas, and the pages' headers.
// Every load here is bounded and sent to 127.0.0.1 only.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import {
  DEMO_REPORT, bearer, get, makeTempDir, postJson, readDemoSurvey, removeDir, sqliteOnly, startServer, storeQuery,
} from './server_harness.mjs';

const CENTRAL_SURVEY = {
  format: 'deniable.survey/v1', id: 'conf', version: 1, title: 'In confidence', results: 'public', access: 'open',
  questions: [
    { id: 'drug', text: 'Which substance?', type: 'categorical', options: ['None', 'Cannabis', 'Other'],
      privacy: 'central', budget: 30 },
  ],
};

const storedReports = (dataDir, id) =>
  storeQuery(dataDir, `SELECT count(*) FROM reports WHERE survey_id = '${id}'`);

describe('hardening, second round', () => {
  let server;
  const dataDir = makeTempDir();
  before(async () => {
    server = await startServer({ dataDir });
  });
  after(async () => { await server.stop(); removeDir(dataDir); });

  const create = (survey) => postJson(`${server.url}/api/surveys`, survey, bearer(server.token));
  const setStatus = (id, body) => postJson(`${server.url}/api/surveys/${id}/status`, body, bearer(server.token));

  it('a close racing reports in flight: no report is stored after the close answered 200', async () => {
    // Before the fix, reports validated before the close and committed after it were stored (12 after a 200).
    // Eight senders keep reports in flight (each sends its next when the last is answered, at most 400 each)
    // while the close is made, so some are always between validation and commit when it lands.
    for (let round = 0; round < 4; round += 1) {
      const id = `closing-${round}`;
      assert.equal((await create({ ...readDemoSurvey(), id })).status, 201);
      const responses = [];
      let stop = false;
      const sender = async () => {
        for (let i = 0; i < 400 && !stop; i += 1) {
          const response = await postJson(`${server.url}/api/surveys/${id}/reports`, { ...DEMO_REPORT, survey: id });
          responses.push(response);
          if (response.status === 409) return;
        }
      };
      const senders = Array.from({ length: 8 }, sender);
      while (responses.filter((r) => r.status === 201).length < 100) await new Promise((resolve) => setTimeout(resolve, 2));
      const closed = await setStatus(id, { status: 'closed' });
      assert.equal(closed.status, 200);
      const atClose = storedReports(dataDir, id);
      await new Promise((resolve) => setTimeout(resolve, 100));
      stop = true;
      await Promise.all(senders);
      const acknowledgedCount = responses.filter((response) => response.status === 201).length;
      for (const response of responses.filter((r) => r.status !== 201)) {
        assert.equal(response.status, 409, JSON.stringify(response.body));
        assert.equal(response.body.error.code, 'survey_closed');
      }
      if (atClose !== null) {
        assert.equal(storedReports(dataDir, id), atClose, `round ${round}: nothing stored after the close's 200`);
        assert.equal(Number(atClose), acknowledgedCount, `round ${round}: every acknowledged report is stored, and only those`);
      }
      const results = (await get(`${server.url}/api/surveys/${id}/results`)).body;
      assert.equal(results.respondents, acknowledgedCount);
    }
  });

  it('concurrent deletions: one deletes, the others are told it is gone (never 500)', async () => {
    assert.equal((await create({ ...readDemoSurvey(), id: 'twice' })).status, 201);
    const responses = await Promise.all(Array.from({ length: 10 }, () =>
      postJson(`${server.url}/api/surveys/twice/delete`, { confirm: 'twice' }, bearer(server.token))));
    assert.equal(responses.filter((r) => r.status === 200).length, 1);
    for (const response of responses.filter((r) => r.status !== 200)) {
      assert.ok([404, 409].includes(response.status), JSON.stringify(response.body));
      assert.ok(['survey_deleted', 'survey_not_found'].includes(response.body.error.code), response.body.error.code);
    }
  });

  it('releases racing a deletion are refused with 409 survey_deleted or 404, never 500; tiny splits are 400 naming the field', async () => {
    for (let round = 0; round < 3; round += 1) {
      const id = `conf-${round}`;
      assert.equal((await create({ ...CENTRAL_SURVEY, id })).status, 201);
      for (let i = 0; i < 5; i += 1) {
        assert.equal((await postJson(`${server.url}/api/surveys/${id}/reports`, { survey: id, version: 1, responses: { drug: i % 3 } })).status, 201);
      }
      const release = () => postJson(`${server.url}/api/surveys/${id}/questions/drug/releases`, { method: 'dp_base', epsilon: 0.5 }, bearer(server.token));
      const releases = Array.from({ length: 20 }, release);
      const deleted = await postJson(`${server.url}/api/surveys/${id}/delete`, { confirm: id }, bearer(server.token));
      assert.equal(deleted.status, 200);
      for (const response of await Promise.all(releases)) {
        assert.ok([201, 404, 409].includes(response.status), `${response.status}: ${JSON.stringify(response.body)}`);
        if (response.status !== 201) assert.ok(['survey_deleted', 'survey_not_found'].includes(response.body.error.code));
      }
    }
    assert.equal((await create(CENTRAL_SURVEY)).status, 201);
    assert.equal((await postJson(`${server.url}/api/surveys/conf/reports`, { survey: 'conf', version: 1, responses: { drug: 1 } })).status, 201);
    for (const [body, field] of [[{ method: 'sreb_gca', epsilon: 1, rho: 1e-300 }, 'rho'], [{ method: 'ahp', epsilon: 1, ratio: 1e-9 }, 'ratio']]) {
      const response = await postJson(`${server.url}/api/surveys/conf/questions/drug/releases`, body, bearer(server.token));
      assert.equal(response.status, 400, JSON.stringify(response.body));
      assert.match(response.body.error.message, new RegExp(`^${field}: must be in \\[0\\.001, 0\\.999\\]`));
    }
  });

  it('reads closing times strictly as RFC 3339 and compares instants, not text', async () => {
    assert.equal((await create({ ...readDemoSurvey(), id: 'timed' })).status, 201);
    for (const loose of [' 2099-12-01T18:00:0Z', '2099-12-01T18:00:0Z', '0000-01-01T00:00:00Z', '2099-12-01 18:00:00Z',
      '2099-12-01T18:00:00', '2099-02-29T00:00:00Z', '2099-12-01T24:00:00Z', '2099-12-01T18:00:00+1:00', '2099-12-01T18:00:00.Z']) {
      const response = await setStatus('timed', { status: 'open', closes_at: loose });
      assert.equal(response.status, 400, `${loose}: ${JSON.stringify(response.body)}`);
      assert.match(response.body.error.message, /^closes_at: must be a UTC time like/);
    }
    assert.equal((await get(`${server.url}/api/surveys/timed/status`)).body.accepting, true, 'a refused time changed nothing');
    // Any offset, lower-case letters and fractions are RFC 3339: stored as the same instant in UTC.
    const offset = await setStatus('timed', { status: 'open', closes_at: '2099-12-01T19:30:00.75+01:30' });
    assert.equal(offset.status, 200);
    assert.equal(offset.body.closes_at, '2099-12-01T18:00:00Z');
    assert.equal((await setStatus('timed', { status: 'open', closes_at: '2099-12-01t18:00:00z' })).body.closes_at, '2099-12-01T18:00:00Z');
    // An instant in the past closes whatever its text says (this offset puts it a day earlier than it reads).
    const past = await setStatus('timed', { status: 'open', closes_at: '2020-01-02T00:00:00+23:59' });
    assert.equal(past.body.closes_at, '2020-01-01T00:01:00Z');
    assert.equal(past.body.accepting, false);
    assert.equal((await postJson(`${server.url}/api/surveys/timed/reports`, { ...DEMO_REPORT, survey: 'timed' })).status, 409);
  });

  it('neutralises CSV cells that a spreadsheet would run as formulas', async () => {
    const survey = readDemoSurvey();
    survey.id = 'formulas';
    survey.questions = [{ ...survey.questions[0], text: '=HYPERLINK("http://example.invalid","x")', options: ['+1 yes', '@SUM(A1)'] }];
    assert.equal((await create(survey)).status, 201);
    const csv = (await get(`${server.url}/api/surveys/formulas/results.csv`)).body;
    assert.ok(csv.includes('"\'=HYPERLINK(""http://example.invalid"",""x"")"'), csv);
    assert.ok(csv.includes('"\'+1 yes"'), csv);
    assert.ok(csv.includes('"\'@SUM(A1)"'), csv);
    for (const line of csv.split('\r\n')) assert.ok(!/(^|,)[=+@]/.test(line), line);
  });

  it('sends HSTS, COOP and Permissions-Policy with pages and API responses', async () => {
    for (const url of [`${server.url}/`, `${server.url}/api/health`]) {
      const response = await fetch(url);
      assert.equal(response.headers.get('strict-transport-security'), 'max-age=31536000');
      assert.equal(response.headers.get('cross-origin-opener-policy'), 'same-origin');
      assert.match(response.headers.get('permissions-policy'), /camera=\(\), geolocation=\(\)/);
      await response.arrayBuffer();
    }
  });
});

describe('a database file removed under the running server', () => {
  it('refuses reports with 503 instead of acknowledging writes a restart would lose', { skip: sqliteOnly('removes the .sqlite3 file') }, async () => {
    // Before the fix the server answered 201 into the unlinked file and lost every such report at restart.
    const dataDir = makeTempDir();
    let server = await startServer({ dataDir });
    try {
      assert.equal((await postJson(`${server.url}/api/surveys`, readDemoSurvey(), bearer(server.token))).status, 201);
      for (let i = 0; i < 5; i += 1) assert.equal((await postJson(`${server.url}/api/surveys/demo/reports`, DEMO_REPORT)).status, 201);
      const database = path.join(dataDir, 'deniable.sqlite3');
      for (const file of [database, `${database}-wal`, `${database}-shm`]) fs.rmSync(file, { force: true });
      let acknowledgedAfter = 0;
      for (let i = 0; i < 30; i += 1) {
        const response = await postJson(`${server.url}/api/surveys/demo/reports`, DEMO_REPORT);
        if (response.status === 201) acknowledgedAfter += 1;
        else {
          assert.equal(response.status, 503, JSON.stringify(response.body));
          assert.equal(response.body.error.code, 'storage_unavailable');
        }
      }
      assert.equal(acknowledgedAfter, 0, 'no report acknowledged into a removed file');
      const closing = await postJson(`${server.url}/api/surveys/demo/status`, { status: 'closed' }, bearer(server.token));
      assert.equal(closing.status, 500, 'a status change is refused too, not acknowledged');
      assert.match(server.output(), /was removed or replaced while the server was running/);
    } finally {
      await server.stop();
    }
    server = await startServer({ dataDir });
    try {
      // A fresh, empty database: every acknowledged report of the removed one went with it, and none was acknowledged after.
      assert.equal((await get(`${server.url}/api/surveys/demo`)).status, 404);
    } finally {
      await server.stop();
      removeDir(dataDir);
    }
  });
});
