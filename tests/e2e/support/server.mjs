// Starts the real Deniable server on a free port with a fresh data directory,
// the demo survey and the built pages, and stops it afterwards.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_SURVEY, REPO_ROOT, SERVER_BIN, WEB_DIST, requireBuiltArtifacts } from './paths.mjs';

const START_TIMEOUT_MS = 20_000;
const LISTENING = /listening on (http:\/\/127\.0\.0\.1:\d+)/;
const ADMIN_TOKEN = /admin token: (\S+)/;

export async function startServer() {
  requireBuiltArtifacts();
  const dataDir = await mkdtemp(join(tmpdir(), 'deniable-e2e-data-'));
  const child = spawn(SERVER_BIN, ['serve', '--port', '0', '--data', dataDir, '--demo', DEMO_SURVEY, '--web', WEB_DIST], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk) => { output += chunk.toString(); };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);

  try {
    const { baseUrl, adminToken } = await waitForStartup(child, () => output);
    return {
      baseUrl,
      adminToken,
      dataDir,
      output: () => output,
      stop: () => stopServer(child, dataDir),
    };
  } catch (error) {
    await stopServer(child, dataDir);
    throw error;
  }
}

function waitForStartup(child, output) {
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => finish(new Error(`server did not start within ${START_TIMEOUT_MS} ms; output:\n${output()}`)), START_TIMEOUT_MS);
    const check = () => {
      const listening = LISTENING.exec(output());
      const token = ADMIN_TOKEN.exec(output());
      if (listening && token) finish(null, { baseUrl: listening[1], adminToken: token[1] });
    };
    const onExit = (code, signal) => finish(new Error(`server exited (code ${code}, signal ${signal}) before listening; output:\n${output()}`));
    function finish(error, value) {
      clearTimeout(timer);
      child.stdout.off('data', check);
      child.stderr.off('data', check);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolvePromise(value);
    }
    child.stdout.on('data', check);
    child.stderr.on('data', check);
    child.on('exit', onExit);
    check();
  });
}

async function stopServer(child, dataDir) {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolvePromise) => child.once('exit', resolvePromise));
    child.kill('SIGTERM');
    const timeout = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timeout);
  }
  await rm(dataDir, { recursive: true, force: true });
}

// JSON over HTTP from the test process itself (not the browser).
export async function requestJson(baseUrl, path, { method = 'GET', json, headers = {} } = {}) {
  const response = await fetch(new URL(path, baseUrl), {
    method,
    headers: { ...(json === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

// Posts every report to the survey, `concurrency` requests in flight, and
// fails on the first one the server does not accept with 201.
export async function postReports(baseUrl, surveyId, reports, concurrency = 8) {
  let next = 0;
  const worker = async () => {
    while (next < reports.length) {
      const report = reports[next];
      next += 1;
      const response = await requestJson(baseUrl, `/api/surveys/${surveyId}/reports`, { method: 'POST', json: report });
      if (response.status !== 201) throw new Error(`report rejected: ${JSON.stringify(response.body)}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
