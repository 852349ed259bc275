// Histogram questions over HTTP: report validation with core's messages, each
// consumer's histogram in the results, bins after collection through a
// question's own option ("salary.edges") and their errors, and results.csv rows.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { bearer, get, postJson, removeDir, startServer } from './server_harness.mjs';

const SURVEY = {
  format: 'deniable.survey/v1', id: 'pay', version: 1, title: 'Pay', results: 'public', access: 'open',
  questions: [
    { id: 'salary', text: 'Salary?', type: 'histogram', range: [0, 120], unit: 'k$',
      histograms: [{ name: 'halves', bins: 2 }, { name: 'bands', edges: [0, 20, 50, 120] }],
      mechanism: { name: 'oue', epsilon: 2 } },
    { id: 'hours', text: 'Hours?', type: 'numeric', range: [0, 60], mechanism: { name: 'square_wave', epsilon: 2 } },
  ],
};
// halves {0, 60, 120} and bands {0, 20, 50, 120} merge into 0, 20, 50, 60, 120: four fine cells.
const CELLS = 4;

function report(index) {
  const bits = Array.from({ length: CELLS }, (_, k) => ((index + k) % 3 === 0 ? 1 : 0));
  return { survey: 'pay', version: 1, responses: { salary: bits, hours: [(index * 7) % 60] } };
}

describe('histogram questions', () => {
  let server;
  before(async () => {
    server = await startServer();
    assert.equal((await postJson(`${server.url}/api/surveys`, SURVEY, bearer(server.token))).status, 201);
    for (let i = 0; i < 40; i += 1) {
      const response = await postJson(`${server.url}/api/surveys/pay/reports`, report(i));
      assert.equal(response.status, 201, JSON.stringify(response.body));
    }
  });
  after(async () => { await server.stop(); removeDir(server.dataDir); });

  const results = (query = '') => `${server.url}/api/surveys/pay/results${query}`;

  it('rejects reports with the wrong number of bits or a bit that is not 0 or 1, naming them', async () => {
    const short = await postJson(`${server.url}/api/surveys/pay/reports`,
      { survey: 'pay', version: 1, responses: { salary: [0, 1], hours: [3] } });
    assert.equal(short.status, 400);
    assert.match(short.body.error.message, /salary.*array of 4 bits/);
    const two = await postJson(`${server.url}/api/surveys/pay/reports`,
      { survey: 'pay', version: 1, responses: { salary: [0, 2, 0, 0], hours: [3] } });
    assert.equal(two.status, 400);
    assert.match(two.body.error.message, /bit 1 must be 0 or 1, but is 2/);
  });

  it('serves every consumer\'s histogram, the fine cells and the quartiles', async () => {
    const response = await get(results());
    assert.equal(response.status, 200);
    const salary = response.body.questions[0];
    assert.equal(salary.type, 'histogram');
    assert.equal(salary.n, 40);
    assert.equal(salary.bits_per_report, CELLS);
    assert.deepEqual(salary.fine.edges, [0, 20, 50, 60, 120]);
    assert.deepEqual(salary.histograms.map((h) => h.name), ['halves', 'bands']);
    assert.deepEqual(salary.histograms[0].edges, [0, 60, 120]);
    assert.equal(salary.histograms[1].bins.length, 3);
    const consistent = salary.histograms[1].bins.reduce((sum, bin) => sum + bin.consistent_frequency, 0);
    assert.ok(Math.abs(consistent - 1) < 1e-9);
    assert.equal(salary.custom, null);
    assert.ok(salary.quantiles.median.low <= salary.quantiles.median.value);
  });

  it('answers bins after collection through the question\'s own option, exact on fine cells', async () => {
    const exact = await get(results('?salary.edges=0,50,120'));
    assert.equal(exact.status, 200, JSON.stringify(exact.body));
    assert.equal(exact.body.questions[0].custom.exact, true);
    const approximate = await get(results('?salary.width=30'));
    assert.equal(approximate.status, 200);
    const custom = approximate.body.questions[0].custom;
    assert.equal(custom.exact, false);  // 30 and 90 cut fine cells
    assert.match(custom.note, /approximate/);
    assert.deepEqual(custom.edges, [0, 30, 60, 90, 120]);
    // The numeric question is untouched by the histogram's own option.
    assert.equal(approximate.body.questions[1].histogram.bin_width, 3);
    // And a survey-wide bin_width is the numeric histogram's: it makes no custom bins here.
    const numericOnly = await get(results('?bin_width=5'));
    assert.equal(numericOnly.status, 200);
    assert.equal(numericOnly.body.questions[0].custom, null);
    assert.equal(numericOnly.body.questions[1].histogram.bin_width, 5);
  });

  it('names a bad option, an unknown question and an unknown option', async () => {
    const bad = await get(results('?salary.edges=0,50,40'));
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /question "salary": edges\[2\]: 40 is not above the previous edge 50/);
    const unknown = await get(results('?salry.edges=0,50'));
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.error.message, /the survey has no question "salry"/);
    const option = await get(results('?salary.colour=red'));
    assert.equal(option.status, 400);
    assert.match(option.body.error.message, /unknown query parameter "salary.colour"/);
  });

  it('exports each consumer\'s bins as CSV rows', async () => {
    const response = await get(`${server.url}/api/surveys/pay/results.csv`);
    assert.equal(response.status, 200);
    const text = response.body;
    assert.match(text, /halves \[0, 60\)/);
    assert.match(text, /bands \[50, 120\]/);
    assert.match(text, /median/);
  });
});
