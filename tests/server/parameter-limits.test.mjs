// Parameters the estimators cannot serve are refused when the survey is
// created, with a 400 naming the field: epsilon below 0.01 for every
// mechanism (grr at 5e-324 used to be accepted and gave null counts and
// intervals), numeric ranges with huge ends or a width too small for their
// ends ([-1e308, 60] used to be accepted and its results failed), RVNS windows
// too narrow to mean anything and uniform probabilities whose derived epsilon
// is below 0.01. The limits themselves are accepted, and a survey at the
// smallest epsilon gives numbers, not nulls.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { bearer, get, postJson, removeDir, startServer } from './server_harness.mjs';

function survey(id, questions) {
  return { format: 'deniable.survey/v1', id, version: 1, title: 'Limits', results: 'public', access: 'open', questions };
}

const categorical = (mechanism, options = ['Yes', 'No', 'Maybe']) => ({ id: 'c', text: 'Choose', options, mechanism });
const numeric = (range, mechanism) => ({ id: 'n', text: 'How much?', type: 'numeric', range, mechanism });
const rvns = (extra, range = [0, 100]) =>
  numeric(range, { name: 'rvns', window: 10, values: 2, window_mode: 'fresh', ...extra });

// [name, questions, expected message (regexp on the whole message)]
const REFUSED = [
  ['grr epsilon 5e-324', [categorical({ name: 'grr', epsilon: 5e-324 })],
    /^questions\[0\]\.mechanism\.epsilon: epsilon must be finite and in \[0\.01, 30\], but is 4\.94065645841e-324$/],
  ['grr epsilon 0.009', [categorical({ name: 'grr', epsilon: 0.009 })],
    /^questions\[0\]\.mechanism\.epsilon: epsilon must be finite and in \[0\.01, 30\], but is 0\.009$/],
  ['oue epsilon 1e-300', [categorical({ name: 'oue', epsilon: 1e-300 })], /^questions\[0\]\.mechanism\.epsilon: .*\[0\.01, 30\]/],
  ['sue epsilon 0.001', [categorical({ name: 'sue', epsilon: 0.001 })], /^questions\[0\]\.mechanism\.epsilon: .*\[0\.01, 30\]/],
  ['negative epsilon 1e-9', [categorical({ name: 'negative', epsilon: 1e-9, reported_options: 1 })],
    /^questions\[0\]\.mechanism\.epsilon: .*\[0\.01, 30\]/],
  ['the second question', [categorical({ name: 'grr', epsilon: 1 }), { ...categorical({ name: 'grr', epsilon: 0.005 }), id: 'd' }],
    /^questions\[1\]\.mechanism\.epsilon: .*but is 0\.005$/],
  ...['square_wave', 'laplace', 'duchi', 'piecewise', 'hybrid'].map((name) => [
    `${name} epsilon 1e-300`, [numeric([0, 100], { name, epsilon: 1e-300 })],
    /^questions\[0\]\.mechanism\.epsilon: epsilon must be finite and in \[0\.01, 30\], but is 1e-300$/]),
  ['piecewise epsilon 0.0099', [numeric([0, 100], { name: 'piecewise', epsilon: 0.0099 })],
    /^questions\[0\]\.mechanism\.epsilon: .*but is 0\.0099$/],
  ['range [-1e308, 60]', [numeric([-1e308, 60], { name: 'square_wave', epsilon: 1 })],
    /^questions\[0\]\.range: range ends must lie in \[-1000000000, 1000000000\], but the range is \[-1e\+308, 60\]$/],
  ['range [0, 2e9]', [numeric([0, 2e9], { name: 'laplace', epsilon: 1 })], /^questions\[0\]\.range: range ends must lie in /],
  ['range [0, 1e-300]', [numeric([0, 1e-300], { name: 'piecewise', epsilon: 1 })],
    /^questions\[0\]\.range: range \[0, 1e-300\] is too narrow: its width must be at least 1e-07 \* max\(1, \|low\|, \|high\|\) = 1e-07, but is 1e-300$/],
  ['range [1e9 - 1, 1e9]', [numeric([1e9 - 1, 1e9], { name: 'duchi', epsilon: 1 })],
    /^questions\[0\]\.range: range \[999999999, 1000000000\] is too narrow: .* = 100, but is 1$/],
  ['range [-1e308, 60] with RVNS', [rvns({}, [-1e308, 60])], /^questions\[0\]\.range: range ends must lie in /],
  ['rvns window 5e-324', [rvns({ window: 5e-324 })],
    /^questions\[0\]\.mechanism\.window: window must be in \[1e-06 \(b-a\), \(b-a\)\/2\] = \[0\.0001, 50\], but is 4\.94065645841e-324$/],
  ['rvns window above half the range', [rvns({ window: 51 })], /^questions\[0\]\.mechanism\.window: .*but is 51$/],
  ['rvns uniform_probability 0.9999999999 (epsilon about 2e-10)', [rvns({ uniform_probability: 0.9999999999 })],
    /^questions\[0\]\.mechanism\.uniform_probability: uniform_probability 0\.9999999999 gives epsilon .*, below the smallest 0\.01/],
  ['rvns uniform_probability 1', [rvns({ uniform_probability: 1 })],
    /^questions\[0\]\.mechanism\.uniform_probability: uniform_probability must be in \[0, 1\), but is 1$/],
  ['square wave b 0', [numeric([0, 100], { name: 'square_wave', epsilon: 1, b: 0 })],
    /^questions\[0\]\.mechanism\.b: b must be finite and in \(0, 1\], but is 0$/],
];

// The limits themselves are valid.
const ACCEPTED = [
  ['grr epsilon 0.01', [categorical({ name: 'grr', epsilon: 0.01 })]],
  ['oue epsilon 30', [categorical({ name: 'oue', epsilon: 30 })]],
  ['laplace epsilon 0.01', [numeric([0, 100], { name: 'laplace', epsilon: 0.01 })]],
  ['range [-1e9, 1e9]', [numeric([-1e9, 1e9], { name: 'square_wave', epsilon: 1 })]],
  ['range [0, 1e-7]', [numeric([0, 1e-7], { name: 'piecewise', epsilon: 1 })]],
  ['range [1e6, 1e6 + 1]', [numeric([1e6, 1e6 + 1], { name: 'hybrid', epsilon: 1 })]],
  ['range [1e9 - 100, 1e9]', [numeric([1e9 - 100, 1e9], { name: 'square_wave', epsilon: 1 })]],
  ['rvns window 1e-6 (b-a)', [rvns({ window: 1e-4 })]],
  ['rvns uniform_probability 0.25', [rvns({ uniform_probability: 0.25 })]],
  // A tiny gamma gives a large derived epsilon (about 1382 here): allowed, it only approaches the published RVNS.
  ['rvns uniform_probability 1e-300', [rvns({ uniform_probability: 1e-300 })]],
];

describe('parameter limits', () => {
  let server;
  before(async () => { server = await startServer({ args: ['--quiet'] }); });
  after(async () => { await server.stop(); removeDir(server.dataDir); });

  const create = (body) => postJson(`${server.url}/api/surveys`, body, bearer(server.token));

  REFUSED.forEach(([name, questions, expected], index) => {
    it(`400 for ${name}, naming the field`, async () => {
      const response = await create(survey(`refused-${index}`, questions));
      assert.equal(response.status, 400, JSON.stringify(response.body));
      assert.equal(response.body.error.code, 'invalid_survey');
      assert.match(response.body.error.message, expected);
      const read = await get(`${server.url}/api/surveys/refused-${index}`);
      assert.equal(read.status, 404, 'a refused survey is not stored');
    });
  });

  ACCEPTED.forEach(([name, questions], index) => {
    it(`201 for ${name}`, async () => {
      const response = await create(survey(`accepted-${index}`, questions));
      assert.equal(response.status, 201, JSON.stringify(response.body));
    });
  });

  it('the advisor refuses epsilon below 0.01 too, naming the parameter', async () => {
    const response = await get(`${server.url}/api/advice?options=2&epsilon=0.001&respondents=1000`);
    assert.equal(response.status, 400);
    assert.match(response.body.error.message, /epsilon must be finite and in \[0\.01, 30\], but is 0\.001$/);
  });

  it('a survey at the smallest epsilon gives finite counts and intervals', async () => {
    const created = await create(survey('smallest', [categorical({ name: 'grr', epsilon: 0.01 }, ['Yes', 'No'])]));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    for (let index = 0; index < 20; index += 1) {
      const sent = await postJson(`${server.url}/api/surveys/smallest/reports`, { survey: 'smallest', version: 1, responses: { c: index % 2 } });
      assert.equal(sent.status, 201, JSON.stringify(sent.body));
    }
    const results = await get(`${server.url}/api/surveys/smallest/results`);
    assert.equal(results.status, 200);
    const [question] = results.body.questions;
    assert.equal(question.n, 20);
    for (const option of question.options) {
      for (const field of ['count', 'frequency', 'std_error', 'ci_low', 'ci_high', 'consistent_frequency']) {
        assert.ok(Number.isFinite(option[field]), `${field} is ${option[field]}`);
      }
    }
  });
});
