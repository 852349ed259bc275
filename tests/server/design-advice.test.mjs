// Issue 27 item 11: POST /api/advice gives a question's design advice (as the
// creation page's WebAssembly designAdviceJson): the mean's precision per
// mechanism for a numeric question, each attribute's share precision for a
// block, rounds and the coefficients' floor for a model. Admin only.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { bearer, postJson, removeDir, startServer } from './server_harness.mjs';

const numeric = (id, range, mechanism) => ({ id, text: id, type: 'numeric', range, mechanism });
const SURVEY = {
  format: 'deniable.survey/v1', id: 'advice', version: 1, title: 'Advice',
  questions: [
    numeric('age', [18, 90], { name: 'square_wave', epsilon: 1 }),
    numeric('pay', [0, 300000], { name: 'square_wave', epsilon: 1 }),
    { id: 'about', text: 'About you', type: 'block', mechanism: { name: 'pmoue', epsilon_per_attribute: 1 },
      attributes: [{ id: 'smoker', text: 'Smoker?', options: ['yes', 'no'] }, { id: 'region', text: 'Region?', options: ['n', 'e', 's', 'w'] }] },
    { id: 'fit', text: 'fit', type: 'linear_regression', target: 'pay', features: ['age'], epsilon: 1 },
  ],
};

describe('POST /api/advice', () => {
  let server;
  before(async () => { server = await startServer(); });
  after(async () => { await server.stop(); removeDir(server.dataDir); });
  const advise = (body, token = server.token) => postJson(`${server.url}/api/advice`, body, token ? bearer(token) : {});

  it('gives a numeric question the mean’s half-width per mechanism, in its units', async () => {
    const response = await advise({ survey: SURVEY, question: 'pay', respondents: 1000 });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const { advice } = response.body;
    assert.equal(response.body.question, 'pay');
    assert.equal(advice.kind, 'numeric_mean');
    assert.equal(advice.current, 'square_wave');
    assert.deepEqual(advice.rows.map((row) => row.mechanism), ['square_wave', 'laplace', 'duchi', 'piecewise', 'hybrid']);
    // Laplace: Var = 2 (w / eps)^2 plus the answers' w^2 / 12, over n.
    const laplace = advice.rows.find((row) => row.mechanism === 'laplace');
    const expected = 1.959963984540054 * Math.sqrt((2 * 300000 ** 2 + 300000 ** 2 / 12) / 1000);
    assert.ok(Math.abs(laplace.ci_half_width - expected) < 1e-9 * expected, `${laplace.ci_half_width} vs ${expected}`);
    assert.ok(advice.rows.some((row) => row.mechanism === advice.best));
  });

  it('gives a block each attribute’s share precision and a model its rounds and floor', async () => {
    const block = await advise({ survey: SURVEY, question: 'about', respondents: 2000 });
    assert.equal(block.status, 200);
    assert.equal(block.body.advice.kind, 'block_shares');
    assert.deepEqual(block.body.advice.attributes.map((attribute) => attribute.id), ['smoker', 'region']);
    const model = await advise({ survey: SURVEY, question: 'fit', respondents: 5000 });
    assert.equal(model.status, 200);
    assert.equal(model.body.advice.kind, 'model_rounds');
    assert.equal(model.body.advice.rounds, Math.floor(5000 / model.body.advice.batch));
    assert.equal(model.body.advice.coefficients.length, 2);
  });

  it('names what is wrong, and refuses without the admin token', async () => {
    assert.equal((await advise({ survey: SURVEY, question: 'pay', respondents: 1000 }, null)).status, 401);
    const missing = await advise({ survey: SURVEY, question: 'nope', respondents: 1000 });
    assert.equal(missing.status, 400);
    assert.match(missing.body.error.message, /no question "nope"/);
    const bad = await advise({ survey: SURVEY, question: 'pay', respondents: 0 });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /^respondents/);
    const invalid = await advise({ survey: { ...SURVEY, questions: [] }, question: 'pay', respondents: 10 });
    assert.equal(invalid.status, 400);
    assert.match(invalid.body.error.message, /^survey\./);
  });
});
