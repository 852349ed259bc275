// A 201 means committed: kill -9 right after the acknowledgement and the
// report is still there after a restart on the same data dir.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';

import {
  DEMO_REPORT, DEMO_SURVEY, bearer, get, makeTempDir, postJson, removeDir, sqlite, sqliteOnly, startServer, storeQuery,
} from './server_harness.mjs';

it('an acknowledged report survives kill -9 and is counted after restart', async () => {
  const dataDir = makeTempDir();
  try {
    const first = await startServer({ dataDir, args: ['--demo', DEMO_SURVEY] });
    const response = await postJson(`${first.url}/api/surveys/demo/reports`, DEMO_REPORT);
    assert.equal(response.status, 201);
    const exit = await first.kill9();
    assert.equal(exit.signal, 'SIGKILL');

    const stored = storeQuery(dataDir, 'SELECT COUNT(*) FROM reports');
    if (stored !== null) assert.equal(stored, '1');

    const second = await startServer({ dataDir, args: ['--demo', DEMO_SURVEY] });
    try {
      assert.match(second.output(), /loaded 1 survey\(s\) and 1 report\(s\)/);
      assert.match(second.output(), /demo survey "demo" already exists/);
      assert.equal(second.token, first.token, 'the admin token is kept in the data dir');
      const results = await get(`${second.url}/api/surveys/demo/results`);
      assert.equal(results.status, 200);
      assert.equal(results.body.respondents, 1);
      for (const question of results.body.questions) assert.equal(question.n, 1);
    } finally {
      await second.stop();
    }
  } finally {
    removeDir(dataDir);
  }
});

it('creates the data dir 0700, a 0600 admin token, and a 0600 WAL database with synchronous=FULL',
  { skip: sqliteOnly('the data dir\'s files and their modes') }, async () => {
  const parent = makeTempDir();
  const dataDir = path.join(parent, 'nested', 'data');
  try {
    const server = await startServer({ dataDir, args: ['--demo', DEMO_SURVEY] });
    try {
      const tokenFile = path.join(dataDir, 'admin-token');
      assert.equal(fs.statSync(tokenFile).mode & 0o777, 0o600);
      assert.equal(fs.statSync(dataDir).mode & 0o777, 0o700);
      assert.equal((await postJson(`${server.url}/api/surveys/demo/reports`, DEMO_REPORT)).status, 201);
      for (const file of ['deniable.sqlite3', 'deniable.sqlite3-wal', 'deniable.sqlite3-shm']) {
        assert.equal(fs.statSync(path.join(dataDir, file)).mode & 0o777, 0o600, file);
      }
      assert.doesNotMatch(server.output(), /data directory .* can be read/);
      assert.equal(fs.readFileSync(tokenFile, 'utf8').trim(), server.token);
      const mode = sqlite(dataDir, 'PRAGMA journal_mode');
      if (mode !== null) {
        assert.equal(mode, 'wal');
        const tables = sqlite(dataDir, "SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name)");
        assert.equal(tables, 'deleted_surveys,invitations,release_ledgers,reports,spent_tokens,survey_aggregates,survey_corrections,survey_keys,survey_status,surveys');
      }
    } finally {
      await server.stop();
    }
  } finally {
    removeDir(parent);
  }
});

it('in an existing data directory open to others: warns at start, and makes the database files 0600',
  { skip: sqliteOnly('the database file\'s mode') }, async () => {
  const dataDir = makeTempDir();
  try {
    fs.chmodSync(dataDir, 0o755);
    fs.writeFileSync(path.join(dataDir, 'deniable.sqlite3'), '');
    fs.chmodSync(path.join(dataDir, 'deniable.sqlite3'), 0o644);
    const server = await startServer({ dataDir, args: ['--demo', DEMO_SURVEY] });
    try {
      assert.match(server.output(), /warning: the data directory .* can be read or entered by other users/);
      assert.equal((await postJson(`${server.url}/api/surveys/demo/reports`, DEMO_REPORT)).status, 201);
      for (const file of ['deniable.sqlite3', 'deniable.sqlite3-wal', 'deniable.sqlite3-shm']) {
        assert.equal(fs.statSync(path.join(dataDir, file)).mode & 0o777, 0o600, file);
      }
    } finally {
      await server.stop();
    }
  } finally {
    removeDir(dataDir);
  }
});

it('stops gracefully on SIGTERM with exit code 0', async () => {
  const server = await startServer({ args: ['--demo', DEMO_SURVEY] });
  try {
    assert.equal((await postJson(`${server.url}/api/surveys/demo/reports`, DEMO_REPORT)).status, 201);
    const exit = await server.stop();
    assert.deepEqual(exit, { code: 0, signal: null });
    assert.match(server.output(), /stopped/);
  } finally {
    removeDir(server.dataDir);
  }
});

it('a schema-2 database (with the survey_id index) loads its reports and loses the index (now schema 8, its shards built from them)',
  { skip: sqliteOnly('SQLite\'s schema history (PostgreSQL\'s: tests/multinode/faults.test.mjs)') }, async () => {
  const dataDir = makeTempDir();
  try {
    const first = await startServer({ dataDir, args: ['--demo', DEMO_SURVEY] });
    for (let i = 0; i < 3; i++) assert.equal((await postJson(`${first.url}/api/surveys/demo/reports`, DEMO_REPORT)).status, 201);
    await first.stop();
    if (sqlite(dataDir, 'CREATE INDEX reports_by_survey ON reports (survey_id); PRAGMA user_version=2;') === null) return;
    const second = await startServer({ dataDir, args: ['--demo', DEMO_SURVEY] });
    try {
      assert.match(second.output(), /loaded 1 survey\(s\) and 3 report\(s\)/);
      assert.equal(sqlite(dataDir, "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name = 'reports_by_survey'"), '0');
      assert.equal(sqlite(dataDir, "SELECT shard || ':' || version FROM survey_aggregates WHERE survey_id = 'demo'"), '0:1');
      assert.equal(sqlite(dataDir, 'PRAGMA user_version'), '8');
    } finally {
      await second.stop();
    }
  } finally {
    removeDir(dataDir);
  }
});

it('a schema-4 database: its model questions keep the one chain they were trained with (schema 5 declares "chains": 1)',
  { skip: sqliteOnly('SQLite\'s schema history') }, async () => {
  const dataDir = makeTempDir();
  const MODEL = {
    format: 'deniable.survey/v1', id: 'model', version: 1, title: 'Model', results: 'public', access: 'open',
    questions: [
      { id: 'x', text: 'x?', type: 'numeric', range: [0, 10], required: false, mechanism: { name: 'duchi', epsilon: 1 } },
      { id: 'y', text: 'y?', type: 'numeric', range: [0, 10], required: false, mechanism: { name: 'duchi', epsilon: 1 } },
      { id: 'fit', text: 'y by x', type: 'linear_regression', target: 'y', features: ['x'], epsilon: 1, batch: 2 },
    ],
  };
  try {
    const first = await startServer({ dataDir });
    assert.equal((await postJson(`${first.url}/api/surveys`, MODEL, bearer(first.token))).status, 201);
    assert.equal((await postJson(`${first.url}/api/surveys`, { ...MODEL, id: 'declared', questions: [MODEL.questions[0], MODEL.questions[1], { ...MODEL.questions[2], chains: 4 }] }, bearer(first.token))).status, 201);
    await first.stop();
    // As a schema-4 server stored it: no "chains" (it trained one).
    if (sqlite(dataDir, 'PRAGMA user_version=4;') === null) return;
    const second = await startServer({ dataDir });
    try {
      assert.equal(sqlite(dataDir, 'PRAGMA user_version'), '8');
      assert.equal((await get(`${second.url}/api/surveys/model`)).body.questions[2].chains, 1);
      assert.equal((await get(`${second.url}/api/surveys/declared`)).body.questions[2].chains, 4, 'a declared value is kept');
      // A survey created now without "chains" gets the default (8): only stored ones were migrated.
      assert.equal((await postJson(`${second.url}/api/surveys`, { ...MODEL, id: 'fresh' }, bearer(second.token))).status, 201);
      assert.equal((await get(`${second.url}/api/surveys/fresh`)).body.questions[2].chains, undefined);
      assert.equal((await get(`${second.url}/api/surveys/fresh/results`)).body.questions[2].chains, 8);
      assert.equal((await get(`${second.url}/api/surveys/model/results`)).body.questions[2].chains, 1);
    } finally {
      await second.stop();
    }
  } finally {
    removeDir(dataDir);
  }
});
