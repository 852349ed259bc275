// The default results document is computed in the background as reports
// arrive (server/surveys/results_warmer.h): once reports have stopped coming
// for a moment, the first reader's request is served from the cache
// (X-Results-Cache: hit) with a document that counts every report, instead of
// computing it while the analyst waits. Reports are acknowledged as before.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { get, postJson, removeDir, startServer, bearer } from './server_harness.mjs';

const NUMERIC = {
  format: 'deniable.survey/v1', id: 'warm', version: 1, title: 'Warm', results: 'public', access: 'open',
  questions: [{ id: 'x', text: 'x?', type: 'numeric', range: [0, 100], mechanism: { name: 'square_wave', epsilon: 1 } }],
};
const REPORTS = 300;
// The warmer waits for 1 s without reports (results_warmer.h); the reader comes after 2.5 s.
const READER_AFTER_MS = 2500;

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

async function postReports(server, count, first) {
  for (let i = first; i < first + count; i += 1) {
    const value = Math.round(((i * 7919) % 10007) / 10007 * 10000) / 100;
    const response = await postJson(`${server.url}/api/surveys/warm/reports`, { survey: 'warm', version: 1, responses: { x: [value] } });
    assert.equal(response.status, 201, JSON.stringify(response.body));
  }
}

describe('results warming', () => {
  let server;
  before(async () => {
    server = await startServer();
    assert.equal((await postJson(`${server.url}/api/surveys`, NUMERIC, bearer(server.token))).status, 201);
  });
  after(async () => { await server.stop(); removeDir(server.dataDir); });

  it('the first reader after reports arrived is served the default document from the cache', async () => {
    await postReports(server, REPORTS, 0);
    await sleep(READER_AFTER_MS);
    const first = await get(`${server.url}/api/surveys/warm/results`);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get('x-results-cache'), 'hit', 'computed in the background, not for this request');
    assert.equal(first.body.respondents, REPORTS);
    assert.equal(first.body.questions[0].n, REPORTS);
    assert.ok(first.body.questions[0].statistics, 'the full numeric document');

    // More reports: warmed again, for the new count.
    await postReports(server, 20, REPORTS);
    await sleep(READER_AFTER_MS);
    const again = await get(`${server.url}/api/surveys/warm/results`);
    assert.equal(again.headers.get('x-results-cache'), 'hit');
    assert.equal(again.body.respondents, REPORTS + 20);
    // Custom options are never warmed: computed for their reader.
    const custom = await get(`${server.url}/api/surveys/warm/results?points=77`);
    assert.equal(custom.headers.get('x-results-cache'), 'miss');
  });
});
