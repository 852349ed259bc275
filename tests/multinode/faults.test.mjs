// Faults with several nodes on PostgreSQL: a node killed with SIGKILL under
// load through nginx (the others go on; every acknowledged report is stored);
// PostgreSQL stopped at once (pg_ctl -m immediate) and restarted under load
// (the nodes answer 503 meanwhile and recover without a restart of their own;
// every acknowledged report is stored); a node started against an empty, an
// older and a newer schema. Acknowledged = answered 201 to the client; stored
// = rows in the database (psql) and the export; a report whose answer was
// lost (502/503/a reset) may or may not be stored, so stored - acknowledged
// is at most the number of such answers.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';

import { spawnSync } from 'node:child_process';

import { BIN, DEMO_REPORT, REPO_ROOT, makeTempDir, readDemoSurvey, removeDir } from '../server/server_harness.mjs';
import {
  MULTINODE_SKIP, createSurvey, freshDatabase, get, postJson, psql, runLoad, sleep, startNode,
  startNodes, startOwnCluster, stopNode, storedReports, waitFor,
} from './multinode_harness.mjs';

const survey = (id) => ({ ...readDemoSurvey(), id });
const reportFor = (id) => ({ ...DEMO_REPORT, survey: id });
const rowsIn = (database, id) => Number(psql(database, `SELECT count(*) FROM reports WHERE survey_id = '${id}'`));
const lost = (counts) => Object.entries(counts).filter(([status]) => status !== '201' && status !== 'total').reduce((sum, [, n]) => sum + n, 0);

describe('faults with several nodes', { skip: MULTINODE_SKIP, timeout: 180000 }, () => {
  const cleanups = [];
  after(async () => { for (const cleanup of cleanups.reverse()) await cleanup(); });

  it('kill -9 of one node under load through nginx: the others go on, every acknowledged report is stored', async () => {
    const cluster = await startNodes({ count: 3, label: 'kill9', first: async (node) => assert.equal((await createSurvey(node, survey('load'))).status, 201) });
    cleanups.push(() => cluster.stop());
    const load = runLoad({ url: () => `${cluster.url}/api/surveys/load/reports`, makeBody: () => reportFor('load'), concurrency: 16 });
    await sleep(1500);
    const atKill = { ...load.counts };
    await cluster.nodes[1].kill9();
    await sleep(2500);
    const counts = await load.stop();
    const afterKill = (counts[201] ?? 0) - (atKill[201] ?? 0);
    const stored = rowsIn(cluster.database, 'load');
    console.log(`kill -9 under load: ${JSON.stringify(counts)}; acknowledged ${counts[201]} (${afterKill} after the kill), stored ${stored}`);
    assert.ok(afterKill > 100, `the other nodes go on after the kill: ${afterKill} acknowledged since`);
    assert.ok(stored >= counts[201], `every acknowledged report is stored: acknowledged ${counts[201]}, stored ${stored}`);
    assert.ok(stored - counts[201] <= lost(counts), `at most the unanswered ones more: ${stored - counts[201]} > ${lost(counts)}`);
    assert.equal(await storedReports(cluster.nodes[2], 'load'), stored, 'the export reads what the database holds');
    for (const node of [cluster.nodes[0], cluster.nodes[2]]) assert.equal(node.child.exitCode, null);
  });

  it('PostgreSQL stopped at once and restarted under load: 503 meanwhile, the nodes recover by themselves, every acknowledged report is stored', async () => {
    const pg = startOwnCluster();
    cleanups.push(() => pg.remove());
    const cluster = await startNodes({
      count: 2, database: freshDatabase('pgrestart', pg.url), first: async (node) => assert.equal((await createSurvey(node, survey('outage'))).status, 201),
    });
    cleanups.push(() => cluster.stop());
    const load = runLoad({ url: () => `${cluster.url}/api/surveys/outage/reports`, makeBody: () => reportFor('outage'), concurrency: 8 });
    await sleep(1000);
    pg.stop();  // pg_ctl -m immediate
    const down = Date.now();
    await sleep(500);
    // Each node, asked directly while the database is down: 503, nothing acknowledged.
    const during = [];
    while (Date.now() - down < 3000) {
      const answers = await Promise.all(cluster.nodes.map((node) =>
        postJson(`${node.url}/api/surveys/outage/reports`, reportFor('outage')).catch((error) => ({ status: 'socket', body: { error: { code: error.cause?.code ?? error.message } } }))));
      during.push(...answers);
    }
    const duringCounts = { ...load.counts };
    pg.restart();
    const up = Date.now();
    const recovered = await Promise.all(cluster.nodes.map((node, i) => waitFor(`node ${i} takes reports again`, async () =>
      (await postJson(`${node.url}/api/surveys/outage/reports`, reportFor('outage')).catch(() => ({}))).status === 201, 30000)));
    await sleep(1000);
    const counts = await load.stop();
    for (const node of cluster.nodes) assert.equal(node.child.exitCode, null, 'the node was not restarted');
    const statuses = [...new Set(during.map((a) => a.status))];
    console.log(`PostgreSQL down ${up - down} ms: direct answers meanwhile ${JSON.stringify(statuses)} `
      + `(${during.length}, codes ${[...new Set(during.map((a) => a.body.error?.code))]}); recovered after ${recovered.join(', ')} ms; `
      + `load ${JSON.stringify(counts)} (at restart ${JSON.stringify(duringCounts)})`);
    assert.deepEqual(statuses, [503], JSON.stringify(during.slice(0, 3).map((a) => a.body)));
    // Through nginx too: a report is acknowledged (201) or refused as unavailable (503), never a 500.
    assert.deepEqual(Object.keys(counts).filter((status) => !['201', '503', 'total'].includes(status)), [], JSON.stringify(counts));
    const acknowledged = counts[201] + during.filter((a) => a.status === 201).length + cluster.nodes.length;
    const stored = rowsIn(cluster.database, 'outage');
    console.log(`acknowledged ${acknowledged} (load ${counts[201]} + ${cluster.nodes.length} recovery probes), stored ${stored}`);
    assert.ok(stored >= acknowledged, `every acknowledged report is stored: acknowledged ${acknowledged}, stored ${stored}`);
    assert.ok(stored - acknowledged <= lost(counts) + during.length, 'at most the unanswered ones more');
  });

  it('three nodes started at once on an empty database make the schema once; a node on a newer schema refuses to start, naming both versions', async () => {
    const database = freshDatabase('schema');
    const cluster = await startNodes({ count: 3, database, nginx: false });
    const latest = Number(psql(database, 'SELECT version FROM schema_version'));
    assert.equal(latest, pgMigrations().length);
    assert.equal(Number(psql(database, 'SELECT count(*) FROM schema_history')), latest, 'each migration applied once');
    assert.equal((await createSurvey(cluster.nodes[0], survey('kept'))).status, 201);
    await cluster.stop();
    psql(database, `UPDATE schema_version SET version = ${latest + 1}`);
    const dataDir = makeTempDir();
    const refused = spawnSync(BIN, ['serve', '--port', '0', '--data', dataDir, '--database', database], { encoding: 'utf8', timeout: 30000 });
    removeDir(dataDir);
    assert.equal(refused.status, 1, refused.stderr);
    assert.match(refused.stderr, new RegExp(`newer version of deniable \\(schema ${latest + 1}; this one knows schemas up to ${latest}\\)`));
    assert.doesNotMatch(refused.stdout, /listening on/);
    // Back at its own version, the data is there.
    psql(database, `UPDATE schema_version SET version = ${latest}`);
    const again = await startNode(database);
    cleanups.push(() => stopNode(again));
    assert.equal((await get(`${again.url}/api/surveys/kept`)).status, 200);
  });

  it('a node on an older schema migrates it once, also when two nodes start on it at once', async (t) => {
    const migrations = pgMigrations();
    if (migrations.length < 2) return t.skip(`the PostgreSQL schema has ${migrations.length} version: no older one to start from until a migration 0002 exists`);
    const database = freshDatabase('older');
    const older = migrations.slice(0, -1);
    // The schema as the previous release left it: its migrations and its version rows, as MigratePostgres writes them.
    psql(database, `CREATE TABLE schema_version (singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton), version integer NOT NULL);
      CREATE TABLE schema_history (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());`);
    for (const migration of older) {
      psql(database, migration.sql);
      psql(database, `INSERT INTO schema_history (version, name) VALUES (${migration.version}, 'test')`);
    }
    psql(database, `INSERT INTO schema_version (version) VALUES (${older.at(-1).version})`);
    const cluster = await startNodes({ count: 2, database, nginx: false });
    cleanups.push(() => cluster.stop());
    assert.equal(Number(psql(database, 'SELECT version FROM schema_version')), migrations.at(-1).version);
    assert.equal(Number(psql(database, 'SELECT count(*) FROM schema_history')), migrations.length, 'each migration applied once');
    assert.equal((await createSurvey(cluster.nodes[0], survey('after'))).status, 201);
    // The other node learns of the survey from the catalog (within a second), then takes its reports.
    await waitFor('node 1 knows the survey', async () => (await get(`${cluster.nodes[1].url}/api/surveys/after`)).status === 200);
    assert.equal((await postJson(`${cluster.nodes[1].url}/api/surveys/after/reports`, reportFor('after'))).status, 201);
  });
});

// The PostgreSQL migrations from their sources (server/storage/pg_migrations/NNNN_*.cc: {version, name, R"sql(...)sql"}).
function pgMigrations() {
  const dir = path.join(REPO_ROOT, 'server/storage/pg_migrations');
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter((file) => /^\d{4}_.*\.cc$/.test(file)).sort().map((file) => {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    const sql = text.match(/R"sql\(([\s\S]*?)\)sql"/);
    if (!sql) throw new Error(`${file}: no R"sql(...)sql" string`);
    return { version: Number(file.slice(0, 4)), sql: sql[1] };
  });
}
