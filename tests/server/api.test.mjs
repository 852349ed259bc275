// Health, unknown routes, limits, security headers and the advisor endpoint.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { DEMO_SURVEY, get, postJson, removeDir, startServer } from './server_harness.mjs';

describe('API basics', () => {
  let server;
  before(async () => { server = await startServer({ args: ['--demo', DEMO_SURVEY] }); });
  after(async () => { await server.stop(); removeDir(server.dataDir); });

  it('GET /api/health answers ok with the version', async () => {
    const response = await get(`${server.url}/api/health`);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { status: 'ok', version: '0.1.0' });
  });

  it('sends the security headers and no-store on API responses', async () => {
    const response = await get(`${server.url}/api/health`);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(response.headers.get('x-frame-options'), 'DENY');
    assert.equal(response.headers.get('cache-control'), 'no-store');
  });

  it('answers an unknown /api route with a JSON 404', async () => {
    const response = await get(`${server.url}/api/nothing/here`);
    assert.equal(response.status, 404);
    assert.match(response.headers.get('content-type'), /^application\/json/);
    assert.equal(response.body.error.code, 'not_found');
    assert.match(response.body.error.message, /no API endpoint GET \/api\/nothing\/here/);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(response.headers.get('cache-control'), 'no-store');
  });

  it('answers a wrong method on a known path with a JSON 404', async () => {
    const response = await postJson(`${server.url}/api/health`, {});
    assert.equal(response.status, 404);
    assert.equal(response.body.error.code, 'not_found');
  });

  it('refuses a 2 MiB body with a JSON 413', async () => {
    const body = JSON.stringify({ padding: 'x'.repeat(2 * 1024 * 1024) });
    const response = await postJson(`${server.url}/api/surveys/demo/reports`, body);
    assert.equal(response.status, 413);
    assert.equal(response.body.error.code, 'payload_too_large');
    assert.match(response.body.error.message, /1048576 bytes/);
  });

  it('refuses JSON nested deeper than 32 levels, naming the limit', async () => {
    const body = '['.repeat(40) + ']'.repeat(40);
    const response = await postJson(`${server.url}/api/surveys/demo/reports`, body);
    assert.equal(response.status, 400);
    assert.equal(response.body.error.code, 'invalid_json');
    assert.equal(response.body.error.message, 'request body: JSON nesting depth exceeds the limit of 32');
  });

  it('refuses a non-JSON content type and a body that is not JSON', async () => {
    const form = await fetch(`${server.url}/api/surveys/demo/reports`, {
      method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'a=1',
    });
    assert.equal(form.status, 400);
    assert.match((await form.json()).error.message, /Content-Type must be application\/json/);
    const garbage = await postJson(`${server.url}/api/surveys/demo/reports`, '{"survey": ');
    assert.equal(garbage.status, 400);
    assert.equal(garbage.body.error.code, 'invalid_json');
    assert.match(garbage.body.error.message, /not valid JSON \(syntax error at byte \d+\)/);
    const overflow = await postJson(`${server.url}/api/surveys/demo/reports`, '{"version": 1e999}');
    assert.equal(overflow.status, 400);
    assert.equal(overflow.body.error.message, 'request body: not valid JSON (a number is out of range)');
  });

  it('GET /api/advice returns the advisor document', async () => {
    const response = await get(`${server.url}/api/advice?options=5&epsilon=1&respondents=1000`);
    assert.equal(response.status, 200);
    assert.equal(response.body.options, 5);
    assert.equal(response.body.epsilon, 1);
    assert.equal(response.body.respondents, 1000);
    assert.equal(response.body.recommended, 'grr');
    const names = response.body.mechanisms.map((m) => m.mechanism);
    assert.deepEqual(names, ['grr', 'oue', 'sue', 'negative', 'negative']);
    assert.equal(response.body.mechanisms[4].epsilon, null);
    for (const m of response.body.mechanisms) {
      assert.ok(m.std_error > 0 && Math.abs(m.ci_half_width - 1.959963984540054 * m.std_error) < 1e-12);
    }
  });

  it('GET /api/advice names a bad or missing parameter', async () => {
    const bad = await get(`${server.url}/api/advice?options=5&epsilon=abc&respondents=1000`);
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.message, 'epsilon: must be a finite number, but is "abc"');
    const missing = await get(`${server.url}/api/advice?options=5&epsilon=1`);
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.message, 'respondents: required query parameter is missing');
    const range = await get(`${server.url}/api/advice?options=1&epsilon=1&respondents=10`);
    assert.equal(range.status, 400);
    assert.match(range.body.error.message, /^options: /);
  });
});
