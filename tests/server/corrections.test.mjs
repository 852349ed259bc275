// Live corrections of a running survey's wording (issue 33): the admin posts
// the definition with corrected words; the server records the changes with
// their time, serves the new words at once (definition, results) without a
// new version, keeps them across a restart, and refuses anything that is not
// wording with a code and the reason. Reports from pages loaded before and
// after the correction both count (reports name the version, which a
// correction keeps).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import {
  DEMO_REPORT, bearer, get, makeTempDir, postJson, readDemoSurvey, removeDir, startServer,
} from './server_harness.mjs';

describe('live corrections', () => {
  let server;
  const dataDir = makeTempDir();
  before(async () => {
    server = await startServer({ dataDir });
    assert.equal((await postJson(`${server.url}/api/surveys`, readDemoSurvey(), bearer(server.token))).status, 201);
  });
  after(async () => { await server.stop(); removeDir(dataDir); });

  const correct = (body, headers = bearer(server.token)) => postJson(`${server.url}/api/surveys/demo/corrections`, body, headers);
  const submit = () => postJson(`${server.url}/api/surveys/demo/reports`, DEMO_REPORT);
  const corrected = () => {
    const survey = readDemoSurvey();
    survey.title = 'Health and habits';
    survey.questions[0].text = 'Have you used a recreational drug in the last 12 months?';
    survey.questions[1].options[0] = 'Never at all';
    return survey;
  };

  it('refuses a correction without the admin token, changing nothing', async () => {
    assert.equal((await correct(corrected(), {})).status, 401);
    const wrong = await correct(corrected(), bearer('0'.repeat(64)));
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error.code, 'admin_token_invalid');
    assert.equal((await get(`${server.url}/api/surveys/demo`)).body.title, 'Health and habits (demo)');
    assert.deepEqual((await get(`${server.url}/api/surveys/demo/corrections`)).body, { survey: 'demo', corrections: [] });
  });

  it('records each change of wording with its time and serves the new words at once, same version', async () => {
    assert.equal((await submit()).status, 201);  // a report sent before the correction
    const done = await correct(corrected());
    assert.equal(done.status, 200);
    assert.equal(done.body.survey, 'demo');
    assert.match(done.body.correction.made_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.deepEqual(done.body.correction.changes, [
      { path: 'title', where: 'title', before: 'Health and habits (demo)', after: 'Health and habits' },
      { path: 'questions[0].text', where: 'question "drugs": text',
        before: 'Have you used a recreational drug in the past 12 months?',
        after: 'Have you used a recreational drug in the last 12 months?' },
      { path: 'questions[1].options[0]', where: 'question "alcohol": option 1', before: 'Never', after: 'Never at all' },
    ]);
    const definition = (await get(`${server.url}/api/surveys/demo`)).body;
    assert.equal(definition.version, 1);
    assert.equal(definition.title, 'Health and habits');
    assert.equal(definition.questions[1].options[0], 'Never at all');
    assert.deepEqual(done.body.definition, definition);
    const list = (await get(`${server.url}/api/surveys/demo/corrections`)).body.corrections;
    assert.deepEqual(list, [done.body.correction]);
  });

  it('counts reports from pages loaded before and after the correction, and the results carry the new words', async () => {
    assert.equal((await submit()).status, 201);  // the same version: a page loaded before still sends
    const results = (await get(`${server.url}/api/surveys/demo/results`)).body;
    assert.equal(results.respondents, 2);
    assert.equal(results.title, 'Health and habits');
    const drugs = results.questions.find((q) => q.id === 'drugs');
    assert.equal(drugs.text, 'Have you used a recreational drug in the last 12 months?');
    const alcohol = results.questions.find((q) => q.id === 'alcohol');
    assert.equal(alcohol.options[0].label, 'Never at all');
  });

  it('refuses what is not wording with needs_new_version and the reason, storing nothing', async () => {
    const more = corrected();
    more.questions[0].options.push('Maybe');
    const count = await correct(more);
    assert.equal(count.status, 409);
    assert.equal(count.body.error.code, 'needs_new_version');
    assert.equal(count.body.error.message, 'questions[0].options: the options\' number changed (2 to 3): reports '
      + 'already collected would be counted against different options; publish a new version instead');
    const epsilon = corrected();
    epsilon.questions[2].mechanism.epsilon = 2;
    const promise = await correct(epsilon);
    assert.equal(promise.status, 409);
    assert.equal(promise.body.error.code, 'needs_new_version');
    assert.match(promise.body.error.message, /^questions\[2\]\.mechanism\.epsilon: the epsilon changed \(1\.5 to 2\.0\): the privacy promise given to earlier respondents would change/);
    const same = await correct(corrected());
    assert.equal(same.status, 400);
    assert.equal(same.body.error.code, 'invalid_request');
    const invalid = corrected();
    invalid.questions[0].options[1] = '';
    const bad = await correct(invalid);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'invalid_survey');
    assert.equal((await get(`${server.url}/api/surveys/demo/corrections`)).body.corrections.length, 1);
    assert.equal((await get(`${server.url}/api/surveys/demo`)).body.questions[0].options.length, 2);
  });

  it('keeps the corrected words and the record across a restart', async () => {
    const before = (await get(`${server.url}/api/surveys/demo/corrections`)).body;
    await server.stop();
    server = await startServer({ dataDir });
    assert.equal((await get(`${server.url}/api/surveys/demo`)).body.title, 'Health and habits');
    assert.deepEqual((await get(`${server.url}/api/surveys/demo/corrections`)).body, before);
    assert.equal((await get(`${server.url}/api/surveys/demo/results`)).body.respondents, 2);
    assert.equal((await submit()).status, 201);
  });

  it('answers 404 for an unknown survey', async () => {
    const missing = await postJson(`${server.url}/api/surveys/nope/corrections`, corrected(), bearer(server.token));
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, 'survey_not_found');
  });
});
