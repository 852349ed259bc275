// Static pages: routes, content types, CSP, path traversal, the 503 when the
// pages are not built, and the --demo survey.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { BIN, DEMO_SURVEY, get, makeTempDir, removeDir, startServer, withServer } from './server_harness.mjs';
import { spawnSync } from 'node:child_process';

const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

// A fake web/dist with one file per content type, and a secret beside it.
function makeWebDir() {
  const root = makeTempDir('deniable-web-');
  const dist = path.join(root, 'dist');
  fs.mkdirSync(path.join(dist, 'assets', 'sub'), { recursive: true });
  for (const page of ['index', 'survey', 'dashboard', 'create']) fs.writeFileSync(path.join(dist, `${page}.html`), `<p>${page}</p>`);
  const assets = { 'app.js': 'x', 'mod.mjs': 'x', 'style.css': 'x', 'core.wasm': 'x', 'logo.svg': '<svg/>', 'data.json': '{}', 'sub/deep.js': 'deep' };
  for (const [name, content] of Object.entries(assets)) fs.writeFileSync(path.join(dist, 'assets', name), content);
  fs.writeFileSync(path.join(dist, 'assets', '.hidden'), 'hidden');
  fs.writeFileSync(path.join(root, 'secret.txt'), 'secret');
  fs.symlinkSync(path.join(root, 'secret.txt'), path.join(dist, 'assets', 'link.txt'));
  return { root, dist };
}

// A GET with the path sent exactly as written (fetch would normalise "..").
function rawGet(port, rawPath) {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path: rawPath, method: 'GET' }, (response) => {
      let body = '';
      response.on('data', (chunk) => { body += chunk; });
      response.on('end', () => resolve({ status: response.statusCode, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

describe('pages', () => {
  let web;
  let server;
  before(async () => {
    web = makeWebDir();
    server = await startServer({ args: ['--web', web.dist, '--demo', DEMO_SURVEY] });
  });
  after(async () => { await server.stop(); removeDir(server.dataDir); removeDir(web.root); });

  const pages = [['/', 'index'], ['/s/demo', 'survey'], ['/results/demo', 'dashboard'], ['/create', 'create']];
  for (const [route, page] of pages) {
    it(`GET ${route} serves ${page}.html with the CSP and security headers`, async () => {
      const response = await get(`${server.url}${route}`);
      assert.equal(response.status, 200);
      assert.equal(response.body, `<p>${page}</p>`);
      assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
      assert.equal(response.headers.get('content-security-policy'), CSP);
      assert.equal(response.headers.get('x-frame-options'), 'DENY');
      assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
    });
  }

  it('serves assets with their content types', async () => {
    const expected = {
      'app.js': 'text/javascript; charset=utf-8', 'mod.mjs': 'text/javascript; charset=utf-8',
      'style.css': 'text/css; charset=utf-8', 'core.wasm': 'application/wasm', 'logo.svg': 'image/svg+xml',
      'data.json': 'application/json', 'sub/deep.js': 'text/javascript; charset=utf-8',
    };
    for (const [name, type] of Object.entries(expected)) {
      const response = await get(`${server.url}/assets/${name}`);
      assert.equal(response.status, 200, name);
      assert.equal(response.headers.get('content-type'), type, name);
    }
  });

  it('does not serve paths outside the assets, hidden files, or symlinks leading out', async () => {
    const attempts = ['/assets/../index.html', '/assets/../../secret.txt', '/assets/%2e%2e/%2e%2e/secret.txt',
      '/assets/sub/../../secret.txt', '/assets/.hidden', '/assets/link.txt', '/assets/missing.js', '/s/bad.id', '/nope'];
    for (const attempt of attempts) {
      const response = await rawGet(server.port, attempt);
      assert.equal(response.status, 404, attempt);
      assert.doesNotMatch(response.body, /secret|hidden/, attempt);
    }
  });

  it('loads the --demo survey', async () => {
    const response = await get(`${server.url}/api/surveys/demo`);
    assert.equal(response.status, 200);
    assert.equal(response.body.title, 'Health and habits (demo)');
  });
});

it('answers 503 for pages when the web dir is missing, and the API still works', async () => {
  await withServer({ args: ['--web', '/nonexistent/deniable/web'] }, async (server) => {
    const page = await get(`${server.url}/s/demo`);
    assert.equal(page.status, 503);
    assert.match(page.body, /npm run build/);
    assert.equal((await get(`${server.url}/api/health`)).status, 200);
  });
});

it('loads every --demo survey given (npm start loads the categorical and the numeric one)', async () => {
  const numeric = path.join(path.dirname(DEMO_SURVEY), 'numeric-survey.json');
  await withServer({ args: ['--demo', DEMO_SURVEY, '--demo', numeric] }, async (server) => {
    assert.equal((await get(`${server.url}/api/surveys/demo`)).status, 200);
    const loaded = await get(`${server.url}/api/surveys/numeric-demo`);
    assert.equal(loaded.status, 200);
    assert.equal(loaded.body.title, 'Health in numbers');
  });
});

it('refuses to start with an invalid --demo file, naming the file and the field', () => {
  const dir = makeTempDir();
  try {
    const demo = path.join(dir, 'bad-demo.json');
    fs.writeFileSync(demo, JSON.stringify({ ...JSON.parse(fs.readFileSync(DEMO_SURVEY, 'utf8')), title: '' }));
    const result = spawnSync(BIN, ['serve', '--port', '0', '--data', path.join(dir, 'data'), '--demo', demo], { encoding: 'utf8', timeout: 10000 });
    assert.equal(result.status, 1);
    assert.match(result.stderr, /--demo .*bad-demo\.json: invalid survey: title: must not be empty/);
  } finally {
    removeDir(dir);
  }
});
