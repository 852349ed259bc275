// Starts `deniable serve` for one test: a fresh temp data dir, --port 0, and
// the real port read from the "listening on" line. Not a test file itself.
//
// The store: SQLite in the data dir by default. With DENIABLE_TEST_DATABASE=postgres
// and DENIABLE_TEST_PG_URL (the URL of a throw-away cluster's "postgres" database,
// as scripts/pg-cluster.sh prints it; scripts/test.sh sets both), each data dir gets
// its own PostgreSQL database, created at its first server start and passed with
// --database: a restart on the same data dir finds the same data, as with SQLite.
import { createHash } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.resolve(REPO_ROOT, process.env.DENIABLE_BIN ?? 'build/deniable');
export const DEMO_SURVEY = path.join(REPO_ROOT, 'examples/demo-survey.json');
export const DEMO_TRUTH = path.join(REPO_ROOT, 'examples/demo-truth.json');
export const DEMO_REPORT = { survey: 'demo', version: 1, responses: { drugs: 1, alcohol: [0, 1, 0, 0, 1], stress: [0, 3] } };

const STARTUP_TIMEOUT_MS = 10000;

export const ON_POSTGRES = process.env.DENIABLE_TEST_DATABASE === 'postgres';
export const PG_URL = process.env.DENIABLE_TEST_PG_URL ?? '';
if (ON_POSTGRES && !PG_URL) throw new Error('DENIABLE_TEST_DATABASE=postgres needs DENIABLE_TEST_PG_URL (scripts/pg-cluster.sh start DIR prints it)');

// A test's `skip` option for what only SQLite has (the .sqlite3 file, its WAL,
// its file modes): skipped in the PostgreSQL run, with the reason printed.
export function sqliteOnly(reason) {
  return ON_POSTGRES ? `SQLite-specific: ${reason}` : false;
}

// The URL of database `name` on the cluster of `baseUrl` (postgresql://user@/db?host=DIR).
export function databaseUrl(name, baseUrl = PG_URL) {
  const query = baseUrl.indexOf('?');
  const head = query < 0 ? baseUrl : baseUrl.slice(0, query);
  const tail = query < 0 ? '' : baseUrl.slice(query);
  return `${head.slice(0, head.lastIndexOf('/'))}/${name}${tail}`;
}

// Runs SQL with psql against `url`; its output, trimmed (throws on an error).
export function psql(url, sql) {
  const result = spawnSync('psql', ['-X', '-A', '-t', '-q', '-v', 'ON_ERROR_STOP=1', url, '-c', sql], { encoding: 'utf8', timeout: 30000 });
  if (result.error) throw new Error(`psql: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`psql failed: ${result.stderr}`);
  return result.stdout.trim();
}

// Creates a fresh database on the test cluster and returns its URL.
export function createDatabase(name, baseUrl = PG_URL) {
  psql(baseUrl, `CREATE DATABASE "${name}"`);
  return databaseUrl(name, baseUrl);
}

const databases = new Map();  // data dir -> its database's URL
function databaseFor(dataDir) {
  if (!databases.has(dataDir)) {
    const name = `t_${createHash('sha256').update(path.resolve(dataDir)).digest('hex').slice(0, 20)}`;
    const exists = psql(PG_URL, `SELECT count(*) FROM pg_database WHERE datname = '${name}'`) === '1';
    databases.set(dataDir, exists ? databaseUrl(name) : createDatabase(name));
  }
  return databases.get(dataDir);
}

// The store arguments for a server on `dataDir`: none for SQLite, --database URL for PostgreSQL.
export function storeArgs(dataDir) {
  return ON_POSTGRES ? ['--database', databaseFor(dataDir)] : [];
}

export function makeTempDir(prefix = 'deniable-test-') {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function readDemoSurvey() {
  return JSON.parse(fs.readFileSync(DEMO_SURVEY, 'utf8'));
}

// Resolves once "listening on http://HOST:PORT" is printed.
function waitForListening(child, output) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${output.text}`)), STARTUP_TIMEOUT_MS);
    const onData = (chunk) => {
      output.text += chunk;
      const match = output.text.match(/listening on http:\/\/([^\s:]+):(\d+)/);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[2]));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk) => { output.text += chunk; });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with code ${code} before listening:\n${output.text}`));
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot run ${BIN} (${error.code}): build it first, or set DENIABLE_BIN`));
    });
  });
}

// options: { dataDir, args: [...] }. The caller must `await server.stop()` (or kill9).
export async function startServer({ dataDir = makeTempDir(), args = [] } = {}) {
  const store = args.includes('--database') ? [] : storeArgs(dataDir);
  const child = spawn(BIN, ['serve', '--port', '0', '--data', dataDir, ...store, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { text: '' };
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const port = await waitForListening(child, output);
  const token = output.text.match(/admin token: ([0-9a-f]{64})/)[1];
  const url = `http://127.0.0.1:${port}`;
  return {
    url, port, token, dataDir, child,
    output: () => output.text,
    // Graceful stop; resolves to { code, signal }.
    stop: async () => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM'); return exited; },
    kill9: async () => { child.kill('SIGKILL'); return exited; },
  };
}

export function removeDir(dir) {
  fs.rmSync(dir, { recursive: true, force: true });
}

export async function postJson(url, body, headers = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: await readBody(response) };
}

export async function get(url, headers = {}) {
  const response = await fetch(url, { headers });
  return { status: response.status, headers: response.headers, body: await readBody(response) };
}

async function readBody(response) {
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  return type.startsWith('application/json') ? JSON.parse(text) : text;
}

export function bearer(token) {
  return { Authorization: `Bearer ${token}` };
}

// Runs SQL with the sqlite3 CLI against the data dir's database; null when
// the CLI is not installed or the run is on PostgreSQL (the caller skips that
// check; a test that cannot is marked sqliteOnly).
export function sqlite(dataDir, sql) {
  if (ON_POSTGRES) return null;
  const result = spawnSync('sqlite3', [path.join(dataDir, 'deniable.sqlite3'), sql], { encoding: 'utf8' });
  if (result.error && result.error.code === 'ENOENT') return null;
  if (result.status !== 0) throw new Error(`sqlite3 failed: ${result.stderr}`);
  return result.stdout.trim();
}

// On PostgreSQL, `export --data DIR` reads the database of the server that ran on DIR.
// Runs SQL on the store of the server that ran on `dataDir`: the sqlite3 CLI on
// its file, or psql on its PostgreSQL database (rows one a line, columns
// separated by "|" in both). `sql` is one statement for both, or
// { sqlite, postgres }. null when the sqlite3 CLI is not installed.
export function storeQuery(dataDir, sql) {
  if (ON_POSTGRES) return psql(databaseFor(dataDir), typeof sql === 'string' ? sql : sql.postgres);
  return sqlite(dataDir, typeof sql === 'string' ? sql : sql.sqlite);
}

// The PostgreSQL database of the server that ran on `dataDir` (PostgreSQL run only).
export function postgresFor(dataDir) {
  if (!ON_POSTGRES) throw new Error('postgresFor: not the PostgreSQL run');
  return databaseFor(dataDir);
}

export function runCli(args) {
  const data = args.indexOf('--data');
  const store = ON_POSTGRES && args[0] === 'export' && data >= 0 && !args.includes('--database') ? storeArgs(args[data + 1]) : [];
  return spawnSync(BIN, [...args, ...store], { encoding: 'utf8', timeout: 60000 });
}

// Starts a server and guarantees it is stopped and its data dir removed.
export async function withServer(options, body) {
  const server = await startServer(options);
  try {
    return await body(server);
  } finally {
    await server.stop();
    removeDir(server.dataDir);
  }
}
