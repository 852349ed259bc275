// Static files are compressed once and cached: Content-Encoding chosen from
// Accept-Encoding (br, then gzip, honouring q=0), bytes that decode to the
// file on disk, strong ETags answered with 304, immutable caching for Vite's
// hashed assets and revalidation for pages, the pages' CSP, HEAD, and files
// too large to hold in memory sent as they are.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, describe, it } from 'node:test';

import { makeTempDir, removeDir, startServer } from './server_harness.mjs';

const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; " +
  "connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
const IMMUTABLE = 'public, max-age=31536000, immutable';
const BROTLI_READY_TIMEOUT_MS = 10_000;

// Compressible text of about `bytes` bytes that differs from file to file.
function text(seed, bytes) {
  const lines = [];
  for (let i = 0; lines.join('\n').length < bytes; i += 1) lines.push(`export const ${seed}_${i} = ${(i * 7919) % 1000} + "${seed}";`);
  return lines.join('\n');
}

// A web/dist as Vite builds it: pages, hashed assets (one in a subdirectory),
// an unhashed one, a tiny one compression cannot shrink, and one over the
// 8 MiB preloading bound.
function makeWebDir() {
  const root = makeTempDir('deniable-static-');
  const dist = path.join(root, 'dist');
  fs.mkdirSync(path.join(dist, 'assets', 'sub'), { recursive: true });
  const files = {
    'survey.html': `<!doctype html><title>survey</title>${text('page', 2000)}`,
    'index.html': '<p>index</p>',
    'dashboard.html': '<p>dashboard</p>',
    'create.html': '<p>create</p>',
    'assets/app-Ab12Cd34.js': text('app', 60000),
    'assets/styles-CLyB2S_u.css': `body { color: black; }\n${text('css', 5000)}`,
    'assets/sub/deep-Qq11Ww-2.js': text('deep', 3000),
    'assets/logo.svg': `<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(200)}</svg>`,
    'assets/tiny-AAAA1111.js': 'x',
  };
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dist, name), content);
  const large = Buffer.alloc(9 * 1024 * 1024, 'a');
  fs.writeFileSync(path.join(dist, 'assets', 'large-Zz99Yy88.js'), large);
  return { root, dist, read: (name) => fs.readFileSync(path.join(dist, name)) };
}

// node:http leaves the body as sent (fetch would decode it).
function request(url, { method = 'GET', headers = {} } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

function decode(response) {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(response.body);
  if (encoding === 'gzip') return zlib.gunzipSync(response.body);
  assert.equal(encoding, undefined, 'no Content-Encoding for identity');
  return response.body;
}

describe('static files', () => {
  let web;
  let server;
  const url = (pathname) => `${server.url}${pathname}`;

  before(async () => {
    web = makeWebDir();
    server = await startServer({ args: ['--web', web.dist] });
    // Brotli variants are made in the background, from the first request on: wait for them.
    await request(url('/assets/app-Ab12Cd34.js'));
    const started = Date.now();
    // (If they never are, the tests below say what is missing.)
    while (!/Brotli variants ready/.test(server.output()) && Date.now() - started < BROTLI_READY_TIMEOUT_MS) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  after(async () => { await server.stop(); removeDir(server.dataDir); removeDir(web.root); });

  const compressible = [['/assets/app-Ab12Cd34.js', 'assets/app-Ab12Cd34.js'], ['/assets/styles-CLyB2S_u.css', 'assets/styles-CLyB2S_u.css'],
    ['/assets/sub/deep-Qq11Ww-2.js', 'assets/sub/deep-Qq11Ww-2.js'], ['/assets/logo.svg', 'assets/logo.svg'], ['/s/demo', 'survey.html']];

  for (const [route, file] of compressible) {
    it(`${route}: br when accepted, gzip when only gzip is, identity otherwise; each decodes to the file`, async () => {
      const onDisk = web.read(file);
      const cases = [['gzip, deflate, br', 'br'], ['gzip', 'gzip'], ['', undefined], ['identity', undefined]];
      for (const [acceptEncoding, expected] of cases) {
        const response = await request(url(route), { headers: acceptEncoding ? { 'Accept-Encoding': acceptEncoding } : {} });
        assert.equal(response.status, 200, acceptEncoding);
        assert.equal(response.headers['content-encoding'], expected, `Accept-Encoding: ${acceptEncoding}`);
        assert.equal(response.headers.vary, 'Accept-Encoding');
        assert.equal(Number(response.headers['content-length']), response.body.length);
        if (expected) assert.ok(response.body.length < onDisk.length, `${expected} is smaller than the file`);
        assert.deepEqual(decode(response), onDisk, `Accept-Encoding: ${acceptEncoding}`);
      }
    });
  }

  it('honours q-values: q=0 refuses a coding, the higher q wins, "*" stands for the others', async () => {
    const cases = [
      ['br;q=0, gzip', 'gzip'], ['br;q=0, gzip;q=0', undefined], ['gzip;q=1.0, br;q=0.5', 'gzip'], ['gzip;q=0.5, br;q=0.5', 'br'],
      ['*', 'br'], ['*;q=0', undefined], ['br;q=0, *', 'gzip'], ['GZIP', 'gzip'], ['x-gzip', 'gzip'], ['deflate', undefined],
      ['br;q=0.000', undefined], ['br ; q=0.8 , gzip ; q=0.9', 'gzip'], ['br;q=2', undefined],
    ];
    for (const [acceptEncoding, expected] of cases) {
      const response = await request(url('/assets/app-Ab12Cd34.js'), { headers: { 'Accept-Encoding': acceptEncoding } });
      assert.equal(response.headers['content-encoding'], expected, `Accept-Encoding: ${acceptEncoding}`);
      assert.deepEqual(decode(response), web.read('assets/app-Ab12Cd34.js'));
    }
  });

  it('sends a file that compression cannot shrink as it is', async () => {
    const response = await request(url('/assets/tiny-AAAA1111.js'), { headers: { 'Accept-Encoding': 'br, gzip' } });
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-encoding'], undefined);
    assert.equal(response.body.toString(), 'x');
  });

  it('has a strong ETag per file and coding, the same on every request', async () => {
    const tags = {};
    for (const acceptEncoding of ['br', 'gzip', 'identity']) {
      const first = await request(url('/assets/app-Ab12Cd34.js'), { headers: { 'Accept-Encoding': acceptEncoding } });
      const second = await request(url('/assets/app-Ab12Cd34.js'), { headers: { 'Accept-Encoding': acceptEncoding } });
      assert.match(first.headers.etag, /^"[0-9a-f]{32}(-br|-gzip)?"$/);
      assert.equal(second.headers.etag, first.headers.etag);
      tags[acceptEncoding] = first.headers.etag;
    }
    assert.equal(new Set(Object.values(tags)).size, 3, JSON.stringify(tags));
    const other = await request(url('/assets/styles-CLyB2S_u.css'), { headers: { 'Accept-Encoding': 'br' } });
    assert.notEqual(other.headers.etag, tags.br);
  });

  it('answers If-None-Match with 304 and no body when the tag matches, 200 otherwise', async () => {
    for (const route of ['/assets/app-Ab12Cd34.js', '/s/demo', '/assets/logo.svg']) {
      const headers = { 'Accept-Encoding': 'gzip, deflate, br' };
      const full = await request(url(route), { headers });
      const etag = full.headers.etag;
      for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const revalidated = await request(url(route), { headers: { ...headers, 'If-None-Match': ifNoneMatch } });
        assert.equal(revalidated.status, 304, `${route} If-None-Match: ${ifNoneMatch}`);
        assert.equal(revalidated.body.length, 0);
        assert.equal(revalidated.headers.etag, etag);
        assert.equal(revalidated.headers['cache-control'], full.headers['cache-control']);
        assert.equal(revalidated.headers.vary, 'Accept-Encoding');
      }
      const changed = await request(url(route), { headers: { ...headers, 'If-None-Match': '"0123456789abcdef0123456789abcdef-br"' } });
      assert.equal(changed.status, 200);
      assert.deepEqual(changed.body, full.body);
      // The gzip copy's tag does not validate the Brotli copy.
      const gzipTag = (await request(url(route), { headers: { 'Accept-Encoding': 'gzip' } })).headers.etag;
      assert.equal((await request(url(route), { headers: { ...headers, 'If-None-Match': gzipTag } })).status, 200);
    }
  });

  it('caches hashed assets for a year (immutable) and revalidates pages and unhashed files', async () => {
    for (const route of ['/assets/app-Ab12Cd34.js', '/assets/styles-CLyB2S_u.css', '/assets/sub/deep-Qq11Ww-2.js', '/assets/tiny-AAAA1111.js']) {
      assert.equal((await request(url(route))).headers['cache-control'], IMMUTABLE, route);
    }
    for (const route of ['/', '/s/demo', '/results/demo', '/create', '/assets/logo.svg']) {
      assert.equal((await request(url(route))).headers['cache-control'], 'no-cache', route);
    }
  });

  it('keeps the pages\' CSP and security headers, compressed or revalidated', async () => {
    for (const route of ['/', '/s/demo', '/results/demo', '/create']) {
      const response = await request(url(route), { headers: { 'Accept-Encoding': 'br' } });
      assert.equal(response.status, 200);
      assert.equal(response.headers['content-type'], 'text/html; charset=utf-8');
      assert.equal(response.headers['content-security-policy'], CSP, route);
      assert.equal(response.headers['x-frame-options'], 'DENY');
      assert.equal(response.headers['x-content-type-options'], 'nosniff');
      assert.equal(response.headers['referrer-policy'], 'no-referrer');
      const revalidated = await request(url(route), { headers: { 'Accept-Encoding': 'br', 'If-None-Match': response.headers.etag } });
      assert.equal(revalidated.status, 304);
      assert.equal(revalidated.headers['content-security-policy'], CSP, route);
    }
    const asset = await request(url('/assets/app-Ab12Cd34.js'));
    assert.equal(asset.headers['content-security-policy'], undefined);
    assert.equal(asset.headers['x-content-type-options'], 'nosniff');
  });

  it('answers HEAD with the headers of the GET and no body', async () => {
    const headers = { 'Accept-Encoding': 'br' };
    const get = await request(url('/assets/app-Ab12Cd34.js'), { headers });
    const head = await request(url('/assets/app-Ab12Cd34.js'), { method: 'HEAD', headers });
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    for (const name of ['content-encoding', 'content-length', 'etag', 'cache-control', 'content-type']) {
      assert.equal(head.headers[name], get.headers[name], name);
    }
  });

  it('sends a file over the 8 MiB preloading bound from disk, uncompressed', async () => {
    const response = await request(url('/assets/large-Zz99Yy88.js'), { headers: { 'Accept-Encoding': 'br, gzip' } });
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-encoding'], undefined);
    assert.equal(response.headers['cache-control'], IMMUTABLE);
    assert.deepEqual(response.body, web.read('assets/large-Zz99Yy88.js'));
  });

  it('still answers 404 for missing and hidden files', async () => {
    for (const route of ['/assets/missing-Ab12Cd34.js', '/assets/.hidden', '/assets/sub/']) {
      assert.equal((await request(url(route))).status, 404, route);
    }
  });
});
