// The reports' export (GET /api/surveys/{id}/reports.csv, reports.json,
// codebook.json; `deniable export`): reports made by the real client path
// (the WebAssembly core's perturb, as the survey page makes them) are posted,
// and the export must give them back one row each in posting order, decoded
// per question (the GRR option, the OUE bits, the numeric value), with empty
// fields for skipped questions; the answers to a question answered in
// confidence appear nowhere (not in the CSV, the JSON or the codebook); the
// admin token is required whatever the results visibility; the CLI writes
// the same bytes as the HTTP export.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { createHash } from 'node:crypto';

import { loadCore } from '../../web/src/core.js';
import { issueToken, sendWithToken } from './token_client.mjs';
import {
  DEMO_REPORT, bearer, get, makeTempDir, postJson, readDemoSurvey, removeDir, runCli, startServer, storeQuery,
} from './server_harness.mjs';

const DEFINITION = {
  format: 'deniable.survey/v1', id: 'exp', version: 1, title: 'Export', results: 'public',
  questions: [
    { id: 'region', text: 'Region?', options: ['North', 'South'], privacy: 'open' },
    { id: 'age', text: 'Age?', type: 'numeric', range: [18, 99], privacy: 'open' },
    { id: 'drug', text: 'Used a drug?', options: ['No', 'Yes'], mechanism: { name: 'grr', epsilon: Math.log(5) } },
    { id: 'alcohol', text: 'How often?', options: ['Never', '=SUM(A1)', 'Often'], required: false,
      mechanism: { name: 'oue', epsilon: 1 } },
    { id: 'hours', text: 'Hours?', type: 'numeric', range: [0, 10], required: false,
      mechanism: { name: 'laplace', epsilon: 1 } },
    { id: 'secret', text: 'Income?', type: 'histogram', range: [0, 10000], privacy: 'central', budget: 1,
      histograms: [{ name: 'tenths', bins: 10 }] },
  ],
};
// The answers to "secret" are distinctive numbers: none may appear in any export.
const SECRETS = [7777.125, 1234.5625, 9876.0625, 4321.8125, 3141.59375, 2718.28125];
const ANSWERS = SECRETS.map((secret, i) => ({
  region: i % 2,
  age: 20 + 7 * i,
  drug: i % 2,
  ...(i % 3 === 1 ? {} : { alcohol: i % 3 }),
  ...(i % 2 === 0 ? { hours: i } : {}),
  secret,
}));
const COLUMNS = ['region', 'age', 'drug', 'alcohol.bit_0', 'alcohol.bit_1', 'alcohol.bit_2', 'hours'];

// The row a report must give: the GRR index, the OUE bits, the value; null when skipped.
function expectedRow(report) {
  const r = report.responses;
  return [r.region, r.age, r.drug, ...(r.alcohol ?? [null, null, null]), r.hours ? r.hours[0] : null];
}

function csvRows(text) {
  const lines = text.split('\r\n');
  assert.equal(lines.pop(), '');  // CRLF after every row
  return lines.map((line) => line.split(','));
}

describe('export of stored reports', () => {
  let server;
  const reports = [];
  before(async () => {
    server = await startServer();
    const created = await postJson(`${server.url}/api/surveys`, DEFINITION, bearer(server.token));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const core = await loadCore();
    const canonical = (await get(`${server.url}/api/surveys/exp`)).body;
    // Open answers are sent as given (the page puts them in the report unchanged); the core randomises the rest.
    const isOpen = (q) => q.privacy === 'open' || q.privacy?.trust === 'open';
    const openIds = canonical.questions.filter(isOpen).map((q) => q.id);
    const randomised = { ...canonical, questions: canonical.questions.filter((q) => !isOpen(q)) };
    for (const answers of ANSWERS) {
      const rest = Object.fromEntries(Object.entries(answers).filter(([id]) => !openIds.includes(id)));
      const report = core.perturb(randomised, rest);
      for (const id of openIds) report.responses[id] = answers[id];
      const posted = await postJson(`${server.url}/api/surveys/exp/reports`, report);
      assert.equal(posted.status, 201, JSON.stringify(posted.body));
      reports.push(report);
    }
  });
  after(async () => { await server.stop(); removeDir(server.dataDir); });

  const admin = () => bearer(server.token);

  it('refuses every export without the admin token (401), even for a survey whose results are public', async () => {
    for (const file of ['reports.csv', 'reports.json', 'codebook.json']) {
      const anonymous = await get(`${server.url}/api/surveys/exp/${file}`);
      assert.equal(anonymous.status, 401, file);
      assert.equal(anonymous.body.error.code, 'admin_token_missing');
      const wrong = await get(`${server.url}/api/surveys/exp/${file}`, bearer('0'.repeat(64)));
      assert.equal(wrong.status, 401, file);
      const unknown = await get(`${server.url}/api/surveys/nope/${file}`, admin());
      assert.equal(unknown.status, 404, file);
    }
  });

  it('gives one CSV row per report, in posting order, each question decoded, skipped questions empty', async () => {
    const response = await get(`${server.url}/api/surveys/exp/reports.csv`, admin());
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type'), /^text\/csv/);
    assert.match(response.headers.get('content-disposition'), /exp-reports\.csv/);
    const [header, ...rows] = csvRows(response.body);
    assert.deepEqual(header, COLUMNS);
    assert.equal(rows.length, reports.length);
    rows.forEach((row, i) => {
      const expected = expectedRow(reports[i]);
      assert.deepEqual(row.map((field) => (field === '' ? null : Number(field))), expected, `row ${i}`);
    });
    // Skipped: report 1 left alcohol and hours out, so their fields are empty.
    assert.deepEqual(rows[1].slice(3), ['', '', '', '']);
    // Open answers as given.
    assert.deepEqual(rows.map((row) => row.slice(0, 2).map(Number)), ANSWERS.map((a) => [a.region, a.age]));
  });

  it('gives the same rows as JSON, nulls for skipped questions', async () => {
    const response = await get(`${server.url}/api/surveys/exp/reports.json`, admin());
    assert.equal(response.status, 200);
    assert.equal(response.body.survey, 'exp');
    assert.deepEqual(response.body.columns, COLUMNS);
    assert.deepEqual(response.body.reports.map((row) => COLUMNS.map((c) => row[c])), reports.map(expectedRow));
  });

  it('never exports the answers to a question answered in confidence, nor a column for it', async () => {
    const csv = (await get(`${server.url}/api/surveys/exp/reports.csv`, admin())).body;
    const json = JSON.stringify((await get(`${server.url}/api/surveys/exp/reports.json`, admin())).body);
    const codebook = (await get(`${server.url}/api/surveys/exp/codebook.json`, admin())).body;
    for (const body of [csv, json, JSON.stringify(codebook)]) {
      for (const secret of SECRETS) assert.ok(!body.includes(String(secret)), `${secret} leaked`);
    }
    assert.ok(!csv.split('\r\n')[0].includes('secret'));
    assert.ok(codebook.columns.every((column) => column.question !== 'secret'));
    assert.deepEqual(codebook.left_out.map((q) => q.question), ['secret']);
    assert.match(codebook.left_out[0].reason, /answered in confidence/);
  });

  it('describes every column and the mechanisms in the codebook, with rr\'s forced design for the binary GRR item', async () => {
    const codebook = (await get(`${server.url}/api/surveys/exp/codebook.json`, admin())).body;
    assert.deepEqual([codebook.survey, codebook.version, codebook.title], ['exp', 1, 'Export']);
    assert.deepEqual(codebook.columns.map((c) => c.name), COLUMNS);
    assert.deepEqual(codebook.columns[2].value_labels, { 0: 'No', 1: 'Yes' });
    assert.equal(codebook.questions[0].trust, 'open');
    assert.equal(codebook.columns[4].meaning, "bit 1: 1 when the report supports option 1 '=SUM(A1)'");
    const drug = codebook.questions.find((q) => q.id === 'drug').mechanism;
    const forcedYes = drug.rr_forced_known[1];
    assert.ok(Math.abs(forcedYes.p - 2 / 3) < 1e-12 && Math.abs(forcedYes.p1 - 1 / 6) < 1e-12 &&
              Math.abs(forcedYes.p0 - 1 / 6) < 1e-12);
    const hours = codebook.questions.find((q) => q.id === 'hours').mechanism;
    assert.equal(hours.name, 'laplace');
    assert.equal(hours.output_range.length, 2);
  });

  it('writes the same bytes from the CLI as the HTTP export, and the codebook', async () => {
    const dir = makeTempDir('deniable-export-');
    try {
      for (const format of ['csv', 'json']) {
        const out = path.join(dir, `reports.${format}`);
        const codebook = path.join(dir, 'codebook.json');
        const run = runCli(['export', '--data', server.dataDir, '--survey', 'exp', '--format', format, '--out', out,
          '--codebook', codebook]);
        assert.equal(run.status, 0, run.stderr);
        assert.match(run.stderr, /6 reports written/);
        const http = await fetch(`${server.url}/api/surveys/exp/reports.${format}`, { headers: admin() });
        assert.equal(fs.readFileSync(out, 'utf8'), await http.text());
        assert.equal(fs.statSync(out).mode & 0o777, 0o600);
        const served = (await get(`${server.url}/api/surveys/exp/codebook.json`, admin())).body;
        assert.deepEqual(JSON.parse(fs.readFileSync(codebook, 'utf8')), served);
      }
      const bad = runCli(['export', '--data', server.dataDir, '--survey', 'exp', '--format', 'sav', '--out', 'x']);
      assert.equal(bad.status, 2);
      assert.match(bad.stderr, /--format must be csv or json/);
      const missing = runCli(['export', '--data', server.dataDir, '--survey', 'nope', '--format', 'csv', '--out',
        path.join(dir, 'x.csv')]);
      assert.equal(missing.status, 1);
      assert.match(missing.stderr, /no survey "nope"/);
    } finally {
      removeDir(dir);
    }
  });

  it('answers admin-only surveys too, only to the admin', async () => {
    const hidden = { ...DEFINITION, id: 'hidden', results: 'admin' };
    assert.equal((await postJson(`${server.url}/api/surveys`, hidden, bearer(server.token))).status, 201);
    assert.equal((await get(`${server.url}/api/surveys/hidden/reports.csv`)).status, 401);
    const response = await get(`${server.url}/api/surveys/hidden/reports.csv`, admin());
    assert.equal(response.status, 200);
    assert.equal(response.body, `${COLUMNS.join(',')}\r\n`);  // no reports yet: the header alone
  });
});

describe('export of an invitation survey', () => {
  // Reports sent with tokens (the page's client) are exported like any
  // other, in stored order, and no token, nor its hash, is in the export.
  // The question id "-hours" begins like a formula: its header cell is
  // neutralised as results.csv does it.
  const INVITED = {
    format: 'deniable.survey/v1', id: 'sealed', version: 1, title: 'Sealed', results: 'admin', access: 'invitation',
    questions: [{ id: '-hours', text: 'Hours?', type: 'numeric', range: [0, 10], mechanism: { name: 'laplace', epsilon: 1 } }],
  };
  let server;
  before(async () => { server = await startServer(); });
  after(async () => { await server.stop(); removeDir(server.dataDir); });

  it('gives the reports in their stored order, without their tokens, with the formula-like header neutralised', async () => {
    assert.equal((await postJson(`${server.url}/api/surveys`, INVITED, bearer(server.token))).status, 201);
    const codes = (await postJson(`${server.url}/api/surveys/sealed/invitations`, { count: 8 }, bearer(server.token))).body.codes;
    const core = await loadCore();
    const posted = [];
    const tokens = [];
    for (const [i, code] of codes.entries()) {
      const report = core.perturb(INVITED, { '-hours': i });
      const token = await issueToken(server.url, 'sealed', code);
      tokens.push(token);
      const response = await sendWithToken(server.url, 'sealed', report, token);
      assert.equal(response.status, 201, JSON.stringify(response.body));
      posted.push(report.responses['-hours'][0]);
    }
    const csv = (await get(`${server.url}/api/surveys/sealed/reports.csv`, bearer(server.token))).body;
    const [header, ...rows] = csvRows(csv);
    assert.deepEqual(header, ['"\'-hours"']);
    const exported = rows.map(([value]) => Number(value));
    assert.deepEqual([...exported].sort((a, b) => a - b), [...posted].sort((a, b) => a - b));
    const json = JSON.stringify((await get(`${server.url}/api/surveys/sealed/reports.json`, bearer(server.token))).body);
    for (const token of tokens) {
      const hash = createHash('sha256').update(Buffer.from(token.input, 'hex')).digest('hex');
      for (const secret of [token.input, token.output, hash]) {
        assert.ok(!csv.includes(secret) && !json.includes(secret), 'a token is in the export');
      }
    }
    const stored = storeQuery(server.dataDir, {
      sqlite: "SELECT json_extract(body, '$.responses.-hours[0]') FROM reports WHERE survey_id = 'sealed' ORDER BY rowid",
      postgres: "SELECT body::json->'responses'->'-hours'->>0 FROM reports WHERE survey_id = 'sealed' ORDER BY id" });
    if (stored !== null) {
      // The sqlite3 CLI prints 15 significant digits: equal to that precision
      // (rounding both to 12 digits would differ when a value sits on a
      // rounding boundary, as a random report sometimes does).
      const printed = stored.split('\n').map(Number);
      assert.equal(printed.length, exported.length);
      exported.forEach((value, i) => {
        assert.ok(Math.abs(value - printed[i]) <= 1e-14 * Math.max(1, Math.abs(value)), `row ${i}: ${value} vs ${printed[i]}`);
      });
    }
  });
});

describe('export gate', () => {
  // 200,000 stored reports (copies of one, written straight into SQLite)
  // make each export take about a second: of four asked at once, one runs,
  // one waits, and the others are refused at once (503 export_busy) instead
  // of each holding a worker and a copy of the body.
  const COPIES = 200000;
  let server;
  after(async () => { if (server) { await server.stop(); removeDir(server.dataDir); } });

  it('runs one export at a time, queues one, and refuses the rest with 503 and Retry-After', async (t) => {
    server = await startServer();
    assert.equal((await postJson(`${server.url}/api/surveys`, readDemoSurvey(), bearer(server.token))).status, 201);
    assert.equal((await postJson(`${server.url}/api/surveys/demo/reports`, DEMO_REPORT)).status, 201);
    await server.stop();
    const inserted = storeQuery(server.dataDir, {
      sqlite: `WITH RECURSIVE c(x) AS (SELECT 2 UNION ALL SELECT x + 1 FROM c WHERE x < ${COPIES})
      INSERT INTO reports (survey_id, body) SELECT 'demo', (SELECT body FROM reports LIMIT 1) FROM c; SELECT COUNT(*) FROM reports;`,
      postgres: `INSERT INTO reports (survey_id, body) SELECT 'demo', (SELECT body FROM reports LIMIT 1) FROM generate_series(2, ${COPIES});
      SELECT COUNT(*) FROM reports;` });
    if (inserted === null) return t.skip('the sqlite3 CLI is not installed');
    assert.equal(Number(inserted), COPIES);
    server = await startServer({ dataDir: server.dataDir });
    const responses = await Promise.all([0, 1, 2, 3].map(() =>
      fetch(`${server.url}/api/surveys/demo/reports.csv`, { headers: bearer(server.token) })));
    const statuses = responses.map((response) => response.status).sort();
    assert.deepEqual(statuses, [200, 200, 503, 503]);
    for (const response of responses) {
      const body = await response.text();
      if (response.status === 200) {
        assert.equal(body.split('\r\n').length, COPIES + 2);  // the header, the rows, the final empty string
      } else {
        assert.equal(JSON.parse(body).error.code, 'export_busy');
        assert.equal(response.headers.get('retry-after'), '5');
      }
    }
  });
});
