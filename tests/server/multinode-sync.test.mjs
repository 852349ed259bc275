// Two server nodes on one store (issue 31): what one node changes, the other
// sees within a second (catalog sync: a survey created, closed, deleted,
// released from), and releases racing on both nodes never overspend (a node
// whose ledger is stale answers 409 ledger_changed, and its retry is decided
// on the stored ledger).
//
// The nodes are two `deniable serve` processes on one data directory: in the
// PostgreSQL run (DENIABLE_TEST_DATABASE=postgres) the harness gives that
// directory one database, which both use; otherwise they share its SQLite
// file, which is not a supported deployment (one process per data directory)
// but exercises the same catalog sync, since SQLite's catalog version also
// moves with another connection's commits. tests/multinode/ runs three nodes
// on PostgreSQL behind nginx.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { ON_POSTGRES, bearer, get, makeTempDir, postJson, removeDir, startServer } from './server_harness.mjs';

const SURVEY = (id) => ({
  format: 'deniable.survey/v1', id, version: 1, title: 'Synced', results: 'public', access: 'open',
  questions: [
    { id: 'drug', text: 'Which?', type: 'categorical', options: ['a', 'b', 'c'], privacy: 'central', budget: 1 },
    { id: 'smoke', text: 'Smoke?', type: 'categorical', options: ['Yes', 'No'], mechanism: { name: 'grr', epsilon: 1 } },
  ],
});
const report = (id, i) => ({ survey: id, version: 1, responses: { drug: i % 3, smoke: i % 2 } });

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

// Polls `check` (async, truthy when seen) until it holds; resolves to the milliseconds it took, or throws after `limit`.
async function within(limit, what, check) {
  const start = performance.now();
  for (;;) {
    if (await check()) return performance.now() - start;
    if (performance.now() - start > limit) throw new Error(`${what}: not seen within ${limit} ms`);
    await sleep(20);
  }
}

describe('two nodes on one store: changes seen within a second, releases never overspend', () => {
  let a;
  let b;
  const dataDir = makeTempDir();
  before(async () => {
    a = await startServer({ dataDir });
    b = await startServer({ dataDir });
    assert.equal(a.token, b.token, 'the admin token is shared');
  });
  after(async () => { await a.stop(); await b.stop(); removeDir(dataDir); });

  it('a survey created, closed, reopened and deleted on A: B sees each within a second', async (t) => {
    const created = await postJson(`${a.url}/api/surveys`, SURVEY('s1'), bearer(a.token));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const seen = await within(1000, 'created', async () => (await get(`${b.url}/api/surveys/s1`)).status === 200);
    // B takes reports for it.
    assert.equal((await postJson(`${b.url}/api/surveys/s1/reports`, report('s1', 0))).status, 201);

    assert.equal((await postJson(`${a.url}/api/surveys/s1/status`, { status: 'closed' }, bearer(a.token))).status, 200);
    const closed = await within(1000, 'closed', async () =>
      (await postJson(`${b.url}/api/surveys/s1/reports`, report('s1', 1))).status === 409);
    const refused = await postJson(`${b.url}/api/surveys/s1/reports`, report('s1', 2));
    assert.equal(refused.body.error.code, 'survey_closed');
    // The commit refuses at once (status checked inside it); B's own view follows within a second.
    await within(1000, 'closed status', async () => (await get(`${b.url}/api/surveys/s1/status`)).body.accepting === false);

    assert.equal((await postJson(`${a.url}/api/surveys/s1/status`, { status: 'open' }, bearer(a.token))).status, 200);
    await within(1000, 'reopened', async () => (await get(`${b.url}/api/surveys/s1/status`)).body.accepting === true);

    const deleted = await postJson(`${a.url}/api/surveys/s1/delete`, { confirm: 's1' }, bearer(a.token));
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    const gone = await within(1000, 'deleted', async () => (await get(`${b.url}/api/surveys/s1`)).status === 404);
    const late = await postJson(`${b.url}/api/surveys/s1/reports`, report('s1', 3));
    assert.ok([404, 409, 410].includes(late.status), JSON.stringify(late.body));
    // The id is not reused, from either node.
    assert.equal((await postJson(`${b.url}/api/surveys`, SURVEY('s1'), bearer(b.token))).body.error.code, 'survey_deleted');
    t.diagnostic(`seen on B after: created ${seen.toFixed(0)} ms, closed ${closed.toFixed(0)} ms, deleted ${gone.toFixed(0)} ms`);
  });

  // Counting answers needs the aggregate shards shared by nodes, which SQLite (one node) does not check.
  const sharedAggregates = ON_POSTGRES ? false : 'the answers each node counts are shared only on PostgreSQL';
  it('a release on A is served by B; releases racing on A and B never overspend the budget', { skip: sharedAggregates }, async (t) => {
    assert.equal((await postJson(`${a.url}/api/surveys`, SURVEY('s2'), bearer(a.token))).status, 201);
    await within(1000, 'created', async () => (await get(`${b.url}/api/surveys/s2`)).status === 200);
    // Answers on both nodes; each counts all of them (the merged shards).
    for (let i = 0; i < 6; i += 1) {
      const node = i % 2 === 0 ? a : b;
      assert.equal((await postJson(`${node.url}/api/surveys/s2/reports`, report('s2', i))).status, 201);
    }
    const releases = (node) => `${node.url}/api/surveys/s2/questions/drug/releases`;
    const first = await postJson(releases(a), { method: 'dp_base', epsilon: 0.3 }, bearer(a.token));
    assert.equal(first.status, 201, JSON.stringify(first.body));
    await within(1000, 'released', async () => (await get(releases(b))).body.releases?.length === 1);

    // Racing: 0.3 from each node at once (0.9 of 1 in all): each is made, at most after one retry.
    const attempt = async (node) => {
      let conflicts = 0;
      for (;;) {
        const response = await postJson(releases(node), { method: 'dp_base', epsilon: 0.3 }, bearer(node.token));
        if (response.status !== 409 || response.body.error.code !== 'ledger_changed') return { response, conflicts };
        conflicts += 1;
        assert.ok(conflicts <= 3, 'retries');
      }
    };
    const raced = await Promise.all([attempt(a), attempt(b)]);
    for (const { response } of raced) assert.equal(response.status, 201, JSON.stringify(response.body));
    // Now 0.1 is left: two racing releases of 0.3 are both refused, and nothing more is spent.
    const over = await Promise.all([attempt(a), attempt(b)]);
    for (const { response } of over) assert.equal(response.body.error.code, 'budget_exceeded');
    for (const node of [a, b]) {
      await within(1000, 'ledger', async () => (await get(releases(node))).body.releases?.length === 3);
      const ledger = (await get(releases(node))).body;
      assert.ok(Math.abs(ledger.spent - 0.9) < 1e-9, `spent ${ledger.spent}`);
    }
    t.diagnostic(`ledger_changed answers before the retries succeeded: ${raced.map((r) => r.conflicts).join(', ')}`);
  });
});
