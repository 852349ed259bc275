// Survey creation (admin), validation messages, duplicates, reading and listing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { bearer, get, postJson, readDemoSurvey, removeDir, startServer } from './server_harness.mjs';

function surveyWith(changes) {
  const survey = { ...readDemoSurvey(), id: 'custom' };
  changes(survey);
  return survey;
}

describe('surveys', () => {
  let server;
  before(async () => { server = await startServer(); });
  after(async () => { await server.stop(); removeDir(server.dataDir); });

  const create = (body, headers) => postJson(`${server.url}/api/surveys`, body, headers ?? bearer(server.token));

  it('needs the admin token: 401 without it and with a wrong one', async () => {
    const missing = await postJson(`${server.url}/api/surveys`, readDemoSurvey());
    assert.equal(missing.status, 401);
    assert.equal(missing.body.error.code, 'admin_token_missing');
    assert.equal(missing.headers.get('www-authenticate'), 'Bearer realm="deniable"');
    const wrong = await create(readDemoSurvey(), bearer('0'.repeat(64)));
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error.code, 'admin_token_invalid');
    const list = await get(`${server.url}/api/surveys`);
    assert.equal(list.status, 401);
  });

  const invalidCases = [
    ['missing title', (s) => { delete s.title; }, 'title: required field is missing'],
    ['epsilon 0', (s) => { s.questions[0].mechanism.epsilon = 0; }, /^questions\[0\]\.mechanism\.epsilon: .*but is 0/],
    ['unknown mechanism', (s) => { s.questions[1].mechanism.name = 'rappor'; }, /^questions\[1\]\.mechanism\.name: /],
    ['duplicate option', (s) => { s.questions[0].options = ['Yes', 'Yes']; }, 'questions[0].options[1]: duplicate option "Yes"'],
    ['unknown field', (s) => { s.epsilom = 1; }, /^epsilom: unknown field/],
    ['bad id', (s) => { s.id = 'no spaces'; }, /^id: must be 1 to 64 characters/],
  ];
  for (const [name, change, expected] of invalidCases) {
    it(`400 for a definition with ${name}, naming the field`, async () => {
      const response = await create(surveyWith(change));
      assert.equal(response.status, 400);
      assert.equal(response.body.error.code, 'invalid_survey');
      if (typeof expected === 'string') assert.equal(response.body.error.message, expected);
      else assert.match(response.body.error.message, expected);
    });
  }

  it('400 for a body that is not JSON or too deep', async () => {
    const notJson = await create('title: hello');
    assert.equal(notJson.status, 400);
    assert.equal(notJson.body.error.code, 'invalid_json');
    const deep = await create('{"a":'.repeat(33) + '1' + '}'.repeat(33));
    assert.equal(deep.status, 400);
    assert.match(deep.body.error.message, /nesting depth exceeds the limit of 32/);
    const array = await create([1, 2]);
    assert.equal(array.status, 400);
    assert.match(array.body.error.message, /must be a JSON object, but is array/);
  });

  it('creates a survey (201 + canonical definition), then 409 for the same id', async () => {
    const definition = surveyWith((s) => { s.id = 'poll'; delete s.description; });
    const created = await create(definition);
    assert.equal(created.status, 201);
    assert.equal(created.body.id, 'poll');
    assert.equal(created.body.description, '');
    assert.equal(created.body.questions[0].type, 'categorical');
    const again = await create(definition);
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'survey_exists');
    assert.match(again.body.error.message, /"poll" already exists/);
  });

  it('serves the canonical definition publicly, 404 for an unknown id', async () => {
    await create(surveyWith((s) => { s.id = 'public-one'; }));
    const found = await get(`${server.url}/api/surveys/public-one`);
    assert.equal(found.status, 200);
    assert.equal(found.body.format, 'deniable.survey/v1');
    assert.equal(found.body.questions.length, 3);
    const missing = await get(`${server.url}/api/surveys/nope`);
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { error: { message: 'no survey with id "nope"', code: 'survey_not_found' } });
  });

  it('lists surveys for the admin with respondents, status and total epsilon', async () => {
    await create(surveyWith((s) => { s.id = 'listed'; }));
    const list = await get(`${server.url}/api/surveys`, bearer(server.token));
    assert.equal(list.status, 200);
    const listed = list.body.surveys.find((s) => s.id === 'listed');
    assert.deepEqual(listed, {
      id: 'listed', version: 1, title: 'Health and habits (demo)', results: 'public', access: 'open',
      respondents: 0, status: 'open', closes_at: null, accepting: true, total_epsilon: 3.5,
    });
    const ids = list.body.surveys.map((s) => s.id);
    assert.deepEqual(ids, [...ids].sort());
  });
});
