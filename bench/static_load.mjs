// Times the web pages' static files as a class opening a survey link together
// would fetch them: one fetch of the largest asset (Accept-Encoding: br), N
// simultaneous fetches of it, and N simultaneous browser-like loads of the
// survey page with every asset it needs (tests/e2e/support/page-load.mjs).
// Starts its own server (127.0.0.1, a temporary data directory, web/dist).
//
// Run from the repository root, after npm run build:
//   node bench/static_load.mjs                     (DENIABLE_BIN=build/deniable, CLIENTS=20,50)
//   DENIABLE_BIN=build-static/deniable CLIENTS=1,20,50 node bench/static_load.mjs
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BROWSER_ACCEPT_ENCODING, discoverPage, loadPage, rawRequest } from '../tests/e2e/support/page-load.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.resolve(ROOT, process.env.DENIABLE_BIN ?? 'build/deniable');
const WEB = path.join(ROOT, 'web/dist');
const CLIENTS = (process.env.CLIENTS ?? '20,50').split(',').map(Number);
const READY_TIMEOUT_MS = 20_000;
const TIMEOUT_MS = 120_000;  // the bench measures slow servers too

async function startServer(dataDir) {
  const child = spawn(BIN, ['serve', '--port', '0', '--data', dataDir, '--web', WEB, '--demo',
    path.join(ROOT, 'examples/demo-survey.json')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const started = performance.now();
  let output = '';
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = output.match(/listening on (http:\/\/[^\s]+)/);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}):\n${output}`)));
  });
  return { child, url, listeningMs: performance.now() - started, started };
}

function largestAsset() {
  const assets = fs.readdirSync(path.join(WEB, 'assets')).map((name) => ({ name, size: fs.statSync(path.join(WEB, 'assets', name)).size }));
  return assets.sort((a, b) => b.size - a.size)[0];
}

const ms = (value) => `${value.toFixed(0)} ms`;

async function timed(work) {
  const start = performance.now();
  const result = await work();
  return { ms: performance.now() - start, result };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'deniable-bench-static-'));
  const server = await startServer(dataDir);
  try {
    const asset = largestAsset();
    const assetUrl = `${server.url}/assets/${asset.name}`;
    const br = { 'Accept-Encoding': 'br' };
    // The server may precompress Brotli after it starts listening: wait for it.
    let first;
    for (;;) {
      first = await rawRequest(assetUrl, { headers: br });
      if (first.headers['content-encoding'] === 'br' || performance.now() - server.started > READY_TIMEOUT_MS) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    console.log(`server: ${BIN}`);
    console.log(`listening after ${ms(server.listeningMs)}; first Brotli response ${ms(performance.now() - server.started)} after start`);
    console.log(`largest asset: ${asset.name}, ${asset.size} bytes, sent as ${first.headers['content-encoding'] ?? 'identity'} in ${first.body.length} bytes`);
    const singles = [];
    for (let i = 0; i < 5; i += 1) singles.push((await timed(() => rawRequest(assetUrl, { headers: br, timeoutMs: TIMEOUT_MS }))).ms);
    console.log(`one fetch of it (Accept-Encoding: br): ${singles.map(ms).join(', ')}`);
    for (const clients of CLIENTS) {
      const each = await Promise.all(Array.from({ length: clients }, () => timed(() => rawRequest(assetUrl, { headers: br, timeoutMs: TIMEOUT_MS }))));
      const total = Math.max(...each.map((fetch) => fetch.ms));
      const slowest = each.map((fetch) => fetch.ms).sort((a, b) => a - b);
      console.log(`${clients} simultaneous fetches of it: all done in ${ms(total)} (median ${ms(slowest[slowest.length >> 1])})`);
    }
    const levels = await discoverPage(server.url, '/s/demo');
    for (const clients of CLIENTS) {
      const { ms: total, result } = await timed(() => Promise.all(Array.from({ length: clients },
        () => loadPage(server.url, levels, { headers: { 'Accept-Encoding': BROWSER_ACCEPT_ENCODING }, timeoutMs: TIMEOUT_MS }))));
      const files = result[0].size;
      const bytes = [...result[0].values()].reduce((sum, response) => sum + response.body.length, 0);
      console.log(`${clients} simultaneous loads of /s/demo (${files} files, ${bytes} bytes each): all done in ${ms(total)}`);
    }
  } finally {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.once('exit', resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
