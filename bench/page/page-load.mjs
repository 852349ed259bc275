// Measures the survey page (/s/demo) as a phone on a weak link would see it;
// run through bench/page/run.sh (its header lists the environment).
//
// "Questions ready": the time from the navigation's start (performance's
// time origin) to the first animation frame after the first question's
// answer controls are present and enabled: the form's first fieldset is in
// the document, not disabled, and holds at least one <input> that is not
// disabled. A respondent can then read and answer it. (Whether the core has
// arrived is not part of it: Prepare may still be waiting.)
// The floor page is ready at the first frame after its load event.
//
// Transfer: the bytes Chromium received for every request of the load, as
// encoded on the wire (CDP Network.loadingFinished encodedDataLength, brotli
// where the server compresses), counted once the network has been idle for
// IDLE_MS after ready, so that what loads after the questions (the core)
// counts too.
//
// Every run: a fresh Chromium with a fresh profile (a cold cache), the
// conditions set through CDP before the navigation.
import { spawn } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const ROOT = resolve(new URL('../..', import.meta.url).pathname);
const BIN = resolve(ROOT, process.env.DENIABLE_BIN ?? 'build/deniable');
const WEB_DIST = resolve(ROOT, process.env.WEB_DIST ?? 'web/dist');
const BASELINE_DIST = process.env.BASELINE_DIST ? resolve(process.env.BASELINE_DIST) : null;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CHROMIUM = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';
const DEMO = resolve(ROOT, 'examples/demo-survey.json');
const IDLE_MS = 500;
const READY_TIMEOUT_MS = 60_000;

const KBPS = 1000 / 8;  // bytes per second in one kilobit per second
const LINK = { offline: false, latency: 150, downloadThroughput: 1600 * KBPS, uploadThroughput: 750 * KBPS };
const CONDITIONS = [
  { name: 'none', cpu: 1, network: null },
  { name: 'CPU 4x', cpu: 4, network: null },
  { name: 'network 1.6 Mbps / 150 ms', cpu: 1, network: LINK },
  { name: 'both', cpu: 4, network: LINK },
];

const FLOOR_HTML = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>floor</title></head>'
  + '<body><p>An empty page.</p></body></html>\n';

// Installed before any page script: records window.__readyAt once the
// page's readiness holds (see the header), checked on every DOM change.
const READY_SCRIPT = `(() => {
  const floor = location.pathname === '/floor.html';
  const questionReady = () => {
    const fieldset = document.querySelector('[data-testid="survey-form"] fieldset');
    if (!fieldset || fieldset.disabled) return false;
    return [...fieldset.querySelectorAll('input')].some((input) => !input.disabled);
  };
  let done = false;
  const mark = () => {
    if (done) return;
    done = true;
    requestAnimationFrame(() => { window.__readyAt = performance.now(); });
  };
  if (floor) {
    addEventListener('load', mark);
    return;
  }
  new MutationObserver(() => { if (questionReady()) mark(); })
    .observe(document, { childList: true, subtree: true, attributes: true });
})();`;

function startServer(webDir) {
  return new Promise(async (resolvePromise, reject) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'deniable-bench-page-data-'));
    const child = spawn(BIN, ['serve', '--port', '0', '--data', dataDir, '--demo', DEMO, '--web', webDir], {
      cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dataDir, { recursive: true, force: true });
    };
    const onData = (chunk) => {
      output += chunk;
      const listening = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (listening && !child.started) {
        child.started = true;
        resolvePromise({ baseUrl: listening[1], output: () => output, stop });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => { if (!child.started) reject(new Error(`server exited (${code}): ${output}`)); });
  });
}

// The server makes its Brotli variants in the background after the first
// request: every file is asked for once, then the runs wait for them.
async function warm(server, webDir) {
  const paths = ['/s/demo', '/floor.html', ...readdirSync(join(webDir, 'assets')).map((name) => `/assets/${name}`)];
  for (const path of paths) await (await fetch(server.baseUrl + path, { headers: { 'Accept-Encoding': 'br' } })).arrayBuffer();
  const started = Date.now();
  while (!/Brotli variants ready/.test(server.output()) && Date.now() - started < 30_000) {
    await new Promise((done) => setTimeout(done, 50));
  }
}

async function oneRun(url, condition) {
  const profile = await mkdtemp(join(tmpdir(), 'deniable-bench-page-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
    viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true,
  });
  try {
    const page = context.pages()[0] ?? await context.newPage();
    await page.addInitScript(READY_SCRIPT);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: false });
    if (condition.cpu !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: condition.cpu });
    if (condition.network) await cdp.send('Network.emulateNetworkConditions', condition.network);
    const bytes = new Map();
    const inFlight = new Set();
    let lastActivity = Date.now();
    const urls = new Map();
    const started = Date.now();
    cdp.on('Network.requestWillBeSent', ({ requestId, request }) => {
      inFlight.add(requestId);
      urls.set(requestId, { url: request.url, start: Date.now() - started });
      lastActivity = Date.now();
    });
    const finished = ({ requestId, encodedDataLength = 0 }) => {
      inFlight.delete(requestId);
      bytes.set(requestId, encodedDataLength);
      if (urls.has(requestId)) Object.assign(urls.get(requestId), { end: Date.now() - started, bytes: encodedDataLength });
      lastActivity = Date.now();
    };
    cdp.on('Network.loadingFinished', finished);
    cdp.on('Network.loadingFailed', finished);
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__readyAt !== undefined, null, { timeout: READY_TIMEOUT_MS, polling: 50 });
    const readyMs = await page.evaluate(() => window.__readyAt);
    while (inFlight.size > 0 || Date.now() - lastActivity < IDLE_MS) await new Promise((done) => setTimeout(done, 50));
    const transfer = [...bytes.values()].reduce((sum, value) => sum + value, 0);
    // BENCH_VERBOSE=1: every request of the run (ms from goto, bytes), to stderr.
    if (process.env.BENCH_VERBOSE) {
      for (const { url: address, start, end, bytes: size } of urls.values()) {
        process.stderr.write(`  ${String(start).padStart(5)}-${String(end).padStart(5)} ms ${String(size).padStart(7)} B ${new URL(address).pathname}\n`);
      }
      process.stderr.write(`  ready at ${Math.round(readyMs)} ms (page clock)\n`);
    }
    return { readyMs, transfer };
  } finally {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

// Rows for one web/dist: the survey page and the floor under every condition.
async function measureDist(label, dist) {
  const webDir = await mkdtemp(join(tmpdir(), 'deniable-bench-page-web-'));
  await cp(dist, webDir, { recursive: true });
  await writeFile(join(webDir, 'floor.html'), FLOOR_HTML);
  const server = await startServer(webDir);
  const rows = [];
  try {
    await warm(server, webDir);
    for (const [page, path] of [[`${label}: /s/demo`, '/s/demo'], [`${label}: floor (empty page)`, '/floor.html']]) {
      for (const condition of CONDITIONS) {
        const runs = [];
        for (let run = 0; run < RUNS; run += 1) runs.push(await oneRun(server.baseUrl + path, condition));
        const ready = runs.map((run) => run.readyMs);
        rows.push({
          page, condition: condition.name, kib: median(runs.map((run) => run.transfer)) / 1024, ready: median(ready),
          range: [Math.min(...ready), Math.max(...ready)],
        });
        process.stderr.write(`${page} ${condition.name}: ${ready.map(Math.round).join(', ')} ms\n`);
      }
    }
  } finally {
    await server.stop();
    await rm(webDir, { recursive: true, force: true });
  }
  return rows;
}

const loadBefore = loadavg()[0];
const rows = [];
if (BASELINE_DIST) rows.push(...await measureDist('baseline', BASELINE_DIST));
rows.push(...await measureDist('this build', WEB_DIST));

console.log(`Survey page, cold cache, median of ${RUNS} runs (ready: first question's inputs present and enabled)`);
console.log(`binary ${BIN}; this build: ${WEB_DIST}${BASELINE_DIST ? `; baseline: ${BASELINE_DIST}` : ''}`);
// Times on a shared machine move with its load: said beside them.
console.log(`load average (1 min) ${loadBefore.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end\n`);
console.log('| page | conditions | transfer KiB (encoded) | questions ready ms (median) | min-max ms |');
console.log('|---|---|---:|---:|---:|');
for (const row of rows) {
  console.log(`| ${row.page} | ${row.condition} | ${row.kib.toFixed(1)} | ${Math.round(row.ready)} | ${Math.round(row.range[0])}-${Math.round(row.range[1])} |`);
}
