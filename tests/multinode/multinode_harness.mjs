// Several `deniable serve` nodes on one PostgreSQL database, behind nginx
// (round robin), for the cross-node tests. Not a test file itself.
//
// Needs a PostgreSQL cluster: DENIABLE_TEST_PG_URL (scripts/test.sh starts one
// and sets it); without it every test here is skipped with MULTINODE_SKIP's
// reason. Each node has its own temp data dir and shares only the database.
// Everything started here is stopped by stop(), and killed at the process's
// exit whatever happened (a failed assertion, a timeout).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

import {
  PG_URL, REPO_ROOT, bearer, createDatabase, get, makeTempDir, postJson, psql, removeDir, startServer,
} from '../server/server_harness.mjs';

export { PG_URL, bearer, get, postJson, psql };

export const MULTINODE_SKIP = PG_URL ? false
  : 'needs PostgreSQL: run by npm test (scripts/test.sh starts a cluster), or set DENIABLE_TEST_PG_URL';
const NGINX_TEMPLATE = path.join(REPO_ROOT, 'tests/multinode/nginx.conf.template');

const running = new Set();  // child processes to kill at exit
process.on('exit', () => { for (const child of running) { try { child.kill('SIGKILL'); } catch { /* gone */ } } });

let databases = 0;
// A fresh database on the test cluster (or on `baseUrl`'s), for one test.
export function freshDatabase(label, baseUrl = PG_URL) {
  databases += 1;
  return createDatabase(`mn_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${process.pid}_${databases}`, baseUrl);
}

// One node on `database`; resolves once it listens. { url, port, token, child, stop, kill9, output }.
export async function startNode(database, args = []) {
  const node = await startServer({ dataDir: makeTempDir('deniable-node-'), args: ['--database', database, '--quiet', ...args] });
  running.add(node.child);
  node.child.once('exit', () => running.delete(node.child));
  return node;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => { const { port } = server.address(); server.close(() => resolve(port)); });
  });
}

// nginx in front of `ports` (round robin). { url, port, stop }.
export async function startNginx(ports, { workers = 1 } = {}) {
  const prefix = makeTempDir('deniable-nginx-');
  fs.chmodSync(prefix, 0o755);  // nginx's workers run as an unprivileged user
  const port = await freePort();
  const servers = ports.map((p) => `server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join('\n    ');
  const config = fs.readFileSync(NGINX_TEMPLATE, 'utf8').replaceAll('@PREFIX@', prefix).replaceAll('@PORT@', String(port))
    .replaceAll('@WORKERS@', String(workers)).replaceAll('@SERVERS@', servers);
  fs.writeFileSync(path.join(prefix, 'nginx.conf'), config);
  const child = spawn('nginx', ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-e', 'stderr'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (chunk) => { log += chunk; });
  running.add(child);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => { running.delete(child); resolve({ code, signal }); }));
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  for (;;) {
    let failure = null;
    if (child.exitCode !== null) failure = `nginx exited:\n${log}`;
    else if (Date.now() - started > 10000) failure = `nginx did not answer within 10 s:\n${log}`;
    if (failure) {
      child.kill('SIGKILL');
      await exited;
      removeDir(prefix);
      throw new Error(failure);
    }
    try { if ((await fetch(`${url}/api/health`)).status === 200) break; } catch { /* not yet */ }
    await sleep(50);
  }
  return {
    url, port, log: () => log,
    stop: async () => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM'); await exited; removeDir(prefix); },
  };
}

// `count` nodes on one database (a fresh one unless given), started at once
// (so that they race to create the schema), and nginx in front unless
// nginx: false. With `first` (async (node) => ...), one node starts alone and
// runs it (e.g. creates the test's survey) before the others start, so that a
// test of an invariant inside the commit does not depend on how fast the
// others learn of the survey (tests/multinode/lifecycle.test.mjs tests that).
// { nodes, database, url (nginx), token, stop }.
export async function startNodes({ count = 3, database, label = 'nodes', args = [], nginx = true, first } = {}) {
  database ??= freshDatabase(label);
  const nodes = [];
  const start = async (n) => {
    const started = await Promise.allSettled(Array.from({ length: n }, () => startNode(database, args)));
    nodes.push(...started.filter((s) => s.status === 'fulfilled').map((s) => s.value));
    const failure = started.find((s) => s.status === 'rejected');
    if (failure) {
      await Promise.all(nodes.map((node) => stopNode(node)));
      throw failure.reason;
    }
  };
  if (first) {
    await start(1);
    try {
      await first(nodes[0]);
    } catch (error) {
      await stopNode(nodes[0]);
      throw error;
    }
    await start(count - 1);
  } else {
    await start(count);
  }
  let balancer = null;
  try {
    if (nginx) balancer = await startNginx(nodes.map((node) => node.port));
  } catch (error) {
    await Promise.all(nodes.map((node) => stopNode(node)));
    throw error;
  }
  return {
    nodes, database, balancer,
    url: balancer?.url,
    token: nodes[0].token,
    stop: async () => {
      if (balancer) await balancer.stop();
      await Promise.all(nodes.map((node) => stopNode(node)));
    },
  };
}

// Stops a node (SIGTERM, or SIGKILL after 10 s) and removes its data dir.
export async function stopNode(node) {
  const timer = setTimeout(() => node.child.kill('SIGKILL'), 10000);
  await node.stop();
  clearTimeout(timer);
  removeDir(node.dataDir);
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Polls `check` (async, truthy when done) every 20 ms; resolves to the ms it
// took, or rejects after timeoutMs naming `what`.
export async function waitFor(what, check, timeoutMs = 5000) {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(20);
  }
}

export function createSurvey(node, survey, token = node.token) {
  return postJson(`${node.url}/api/surveys`, survey, bearer(token));
}

// The stored reports of a survey, read through the export (admin): what the
// database holds, whatever any node's aggregate says.
export async function storedReports(node, id, token = node.token) {
  const response = await get(`${node.url}/api/surveys/${id}/reports.json`, bearer(token));
  if (response.status !== 200) throw new Error(`reports.json: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.reports.length;
}

// The survey's respondents as a node's list says (admin).
export async function respondents(node, id, token = node.token) {
  const list = await get(`${node.url}/api/surveys`, bearer(token));
  return list.body.surveys.find((s) => s.id === id)?.respondents;
}

// Sends `makeBody(i)` to `url(i)` from `concurrency` clients until stop() is
// called; counts the answers by status. A client whose request fails at the
// socket counts it under 'socket'. { stop: async () => counts, counts }.
export function runLoad({ url, makeBody, concurrency = 8, headers = () => ({}) }) {
  const counts = { total: 0 };
  let stopping = false;
  let sent = 0;
  const client = async () => {
    while (!stopping) {
      const i = sent;
      sent += 1;
      let status;
      try {
        const response = await fetch(url(i), {
          method: 'POST', headers: { 'Content-Type': 'application/json', ...headers(i) }, body: JSON.stringify(makeBody(i)),
          signal: AbortSignal.timeout(20000),
        });
        status = response.status;
        await response.arrayBuffer();
      } catch {
        status = 'socket';
        await sleep(5);
      }
      counts[status] = (counts[status] ?? 0) + 1;
      counts.total += 1;
    }
  };
  const clients = Array.from({ length: concurrency }, client);
  return { counts, stop: async () => { stopping = true; await Promise.all(clients); return counts; } };
}

// A PostgreSQL cluster of the test's own (for faults that stop it): started
// by scripts/pg-cluster.sh in a temp dir. { url, dir, stop() (pg_ctl -m
// immediate: a crash), restart() (the same data), remove() }.
export function startOwnCluster() {
  const parent = makeTempDir('deniable-pgown-');
  fs.chmodSync(parent, 0o755);  // the postgres user enters it
  const dir = path.join(parent, 'cluster');
  const script = path.join(REPO_ROOT, 'scripts/pg-cluster.sh');
  const run = (...args) => {
    const result = spawnSync('bash', [script, ...args], { encoding: 'utf8', timeout: 60000 });
    if (result.status !== 0) throw new Error(`pg-cluster.sh ${args[0]}: ${result.stderr}`);
    return result.stdout.trim();
  };
  const url = run('start', dir);
  return {
    url, dir,
    stop: () => run('stop', dir),
    restart: () => run('start', dir),
    remove: () => {
      spawnSync('bash', [script, 'stop', dir], { encoding: 'utf8', timeout: 60000 });
      removeDir(path.dirname(dir));
    },
  };
}
