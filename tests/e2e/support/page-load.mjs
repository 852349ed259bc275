// A page load as a browser makes it, but from Node so that many can run at
// once: the HTML page, then every /assets/ file it references, then the files
// those import (level by level, each file once), with the browser's
// "Accept-Encoding: gzip, deflate, br" and its six connections per origin.
// node:http does not decode bodies, so the bytes on the wire are what is
// counted; the text is decoded only to find the references.
import http from 'node:http';
import zlib from 'node:zlib';

export const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br';
const CONNECTIONS_PER_ORIGIN = 6;
const REQUEST_TIMEOUT_MS = 10_000;

// One GET (or HEAD); resolves to { status, headers, body: Buffer } with the body as sent.
export function rawRequest(url, { method = 'GET', headers = {}, agent, timeoutMs = REQUEST_TIMEOUT_MS } = {}) {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers, agent, timeout: timeoutMs }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`${method} ${url}: idle for ${timeoutMs} ms`)));
    request.on('error', reject);
    request.end();
  });
}

// The body with its Content-Encoding undone.
export function decodedBody(response) {
  const encoding = response.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(response.body);
  if (encoding === 'gzip') return zlib.gunzipSync(response.body);
  if (encoding === undefined || encoding === 'identity') return response.body;
  throw new Error(`unexpected Content-Encoding ${encoding}`);
}

// The /assets/ paths a page or an asset refers to: absolute /assets/ URLs in
// HTML and "./name.ext" imports (Vite's chunk imports) in JavaScript.
export function referencedAssets(text, fromPath) {
  const found = new Set();
  for (const match of text.matchAll(/["'`](\/assets\/[A-Za-z0-9_./-]+)["'`]/g)) found.add(match[1]);
  if (fromPath.startsWith('/assets/')) {
    const directory = fromPath.slice(0, fromPath.lastIndexOf('/') + 1);
    for (const match of text.matchAll(/["'`]\.\/([A-Za-z0-9_-]+\.(?:js|mjs|css|wasm|svg))["'`]/g)) found.add(directory + match[1]);
  }
  return [...found];
}

// What loading pagePath takes, level by level: [[pagePath], [what it
// references], [what those import], ...]. Found once, by decoding each file.
export async function discoverPage(baseUrl, pagePath, { headers = { 'Accept-Encoding': BROWSER_ACCEPT_ENCODING } } = {}) {
  const levels = [];
  const seen = new Set([pagePath]);
  let level = [pagePath];
  while (level.length > 0) {
    levels.push(level);
    const found = await Promise.all(level.map(async (path) => {
      const response = await rawRequest(new URL(path, baseUrl), { headers });
      if (response.status !== 200) throw new Error(`GET ${path}: status ${response.status}`);
      return referencedAssets(decodedBody(response).toString('utf8'), path);
    }));
    level = [...new Set(found.flat())].filter((path) => !seen.has(path));
    for (const path of level) seen.add(path);
  }
  return levels;
}

// One client loading the levels discoverPage found, each level once the
// previous one has arrived (as a browser finds them), on its own six
// connections. Bodies are not decoded (that is the client's work, not the
// server's). Returns the responses by path; throws on any status but 200.
export async function loadPage(baseUrl, levels, { headers = { 'Accept-Encoding': BROWSER_ACCEPT_ENCODING }, timeoutMs } = {}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS_PER_ORIGIN });
  const responses = new Map();
  try {
    for (const level of levels) {
      await Promise.all(level.map(async (path) => {
        const response = await rawRequest(new URL(path, baseUrl), { headers, agent, timeoutMs });
        if (response.status !== 200) throw new Error(`GET ${path}: status ${response.status}`);
        responses.set(path, response);
      }));
    }
    return responses;
  } finally {
    agent.destroy();  // a client that is done lets go of its connections
  }
}
