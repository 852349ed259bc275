// Surveys across three nodes on one PostgreSQL database: the admin token is
// one token; a survey created, closed, reopened or deleted on one node is seen
// by the others within a second; a closed or deleted survey takes no report on
// any node, also the instant after the close's 200 or its closing time (status
// and deletion are checked inside the commit, with the database's clock); a deleted id is never reused from any node; and
// no node serves a results document older than another node's acknowledged
// reports (caches keyed by the survey's global data version).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { DEMO_REPORT, readDemoSurvey } from '../server/server_harness.mjs';
import {
  MULTINODE_SKIP, bearer, createSurvey, get, postJson, respondents, runLoad, sleep, startNodes, storedReports, waitFor,
} from './multinode_harness.mjs';

const SEEN_WITHIN_MS = 1000;
const survey = (id) => ({ ...readDemoSurvey(), id });
const reportFor = (id) => ({ ...DEMO_REPORT, survey: id });

describe('surveys across three nodes', { skip: MULTINODE_SKIP, timeout: 120000 }, () => {
  let cluster;
  let nodes;
  before(async () => {
    cluster = await startNodes({ count: 3, label: 'lifecycle', nginx: false });
    nodes = cluster.nodes;
  });
  after(async () => { await cluster?.stop(); });

  const status = (node, id, body) => postJson(`${node.url}/api/surveys/${id}/status`, body, bearer(cluster.token));
  const send = (node, id) => postJson(`${node.url}/api/surveys/${id}/reports`, reportFor(id));
  const seenBy = (what, others, check) => Promise.all(others.map((node, i) => waitFor(`${what} (node ${i + 1})`, () => check(node), SEEN_WITHIN_MS)));

  it('the nodes, started at once on an empty database, share one admin token', async () => {
    assert.equal(new Set(nodes.map((node) => node.token)).size, 1, nodes.map((node) => node.token).join(' '));
    for (const node of nodes) assert.equal((await get(`${node.url}/api/surveys`, bearer(nodes[0].token))).status, 200);
  });

  it('a survey created on one node is served by the others within a second', async () => {
    assert.equal((await createSurvey(nodes[0], survey('fresh'))).status, 201);
    const took = await seenBy('created', nodes.slice(1), async (node) => (await get(`${node.url}/api/surveys/fresh`)).status === 200);
    console.log(`creation seen by the other nodes after ${took.join(', ')} ms`);
    // The same id from another node is taken.
    const again = await createSurvey(nodes[2], survey('fresh'));
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'survey_exists');
  });

  it('a survey closed on one node takes no report on any node from the close\'s 200 on; reopened, takes them again', async () => {
    assert.equal((await createSurvey(nodes[0], survey('closing'))).status, 201);
    await seenBy('created', nodes.slice(1), async (node) => (await get(`${node.url}/api/surveys/closing`)).status === 200);
    // Reports flow on the other nodes while node 0 closes the survey.
    const load = runLoad({ url: (i) => `${nodes[1 + (i % 2)].url}/api/surveys/closing/reports`, makeBody: () => reportFor('closing'), concurrency: 6 });
    await sleep(300);
    const closed = await status(nodes[0], 'closing', { status: 'closed' });
    assert.equal(closed.status, 200, JSON.stringify(closed.body));
    // At once, before any poll could have told them: the commit checks the status.
    const after = await Promise.all([nodes[1], nodes[2], nodes[1], nodes[2]].map((node) => send(node, 'closing')));
    const counts = await load.stop();
    for (const answer of after) {
      assert.equal(answer.status, 409, JSON.stringify(answer.body));
      assert.equal(answer.body.error.code, 'survey_closed');
    }
    assert.ok(counts[201] > 0, JSON.stringify(counts));
    assert.equal(await storedReports(nodes[0], 'closing'), counts[201], `acknowledged ${JSON.stringify(counts)}`);
    const took = await seenBy('closed', nodes.slice(1), async (node) => (await get(`${node.url}/api/surveys/closing/status`)).body.status === 'closed');
    console.log(`close: ${counts[201]} reports acknowledged before it, all stored; seen closed after ${took.join(', ')} ms`);
    assert.equal((await status(nodes[2], 'closing', { status: 'open' })).status, 200);
    await seenBy('reopened', [nodes[0], nodes[1]], async (node) => (await get(`${node.url}/api/surveys/closing/status`)).body.status === 'open');
    assert.equal((await send(nodes[0], 'closing')).status, 201);
  });

  it('a closing time set on one node closes the survey on every node at that instant (the database\'s clock)', async () => {
    assert.equal((await createSurvey(nodes[0], survey('timed'))).status, 201);
    await seenBy('created', nodes.slice(1), async (node) => (await get(`${node.url}/api/surveys/timed`)).status === 200);
    const closesAt = Math.ceil(Date.now() / 1000) * 1000 + 2000;
    const set = await status(nodes[0], 'timed', { status: 'open', closes_at: new Date(closesAt).toISOString().replace(/\.\d+Z$/, 'Z') });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    for (const node of nodes.slice(1)) assert.equal((await send(node, 'timed')).status, 201);
    await sleep(closesAt - Date.now() + 100);
    for (const answer of await Promise.all([send(nodes[1], 'timed'), send(nodes[2], 'timed'), send(nodes[0], 'timed')])) {
      assert.equal(answer.status, 409, JSON.stringify(answer.body));
      assert.equal(answer.body.error.code, 'survey_closed');
    }
    assert.equal(await storedReports(nodes[0], 'timed'), 2);
  });

  it('a survey deleted on one node takes no report on any node, is gone everywhere within a second, and its id is never reused', async () => {
    assert.equal((await createSurvey(nodes[1], survey('doomed'))).status, 201);
    await seenBy('created', [nodes[0], nodes[2]], async (node) => (await get(`${node.url}/api/surveys/doomed`)).status === 200);
    assert.equal((await send(nodes[2], 'doomed')).status, 201);
    const deleted = await postJson(`${nodes[0].url}/api/surveys/doomed/delete`, { confirm: 'doomed' }, bearer(cluster.token));
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.equal(deleted.body.reports_deleted, 1);
    for (const answer of await Promise.all([send(nodes[1], 'doomed'), send(nodes[2], 'doomed')])) {
      assert.ok([404, 409].includes(answer.status), JSON.stringify(answer.body));
      assert.ok(['survey_deleted', 'survey_not_found'].includes(answer.body.error.code), answer.body.error.code);
    }
    const took = await seenBy('deleted', [nodes[1], nodes[2]], async (node) => (await get(`${node.url}/api/surveys/doomed`)).status === 404);
    console.log(`deletion seen by the other nodes after ${took.join(', ')} ms`);
    for (const node of nodes) {
      const again = await createSurvey(node, survey('doomed'));
      assert.equal(again.status, 409);
      assert.equal(again.body.error.code, 'survey_deleted');
    }
  });

  it('no node serves a stale results document after another node acknowledged reports', async () => {
    assert.equal((await createSurvey(nodes[0], survey('fresh-results'))).status, 201);
    await seenBy('created', nodes.slice(1), async (node) => (await get(`${node.url}/api/surveys/fresh-results`)).status === 200);
    const results = async (node) => (await get(`${node.url}/api/surveys/fresh-results/results`)).body.respondents;
    for (let step = 1; step <= 3; step += 1) {
      // Every node has the document cached...
      for (const node of nodes) await results(node);
      // ...then one node acknowledges reports, and every node's next document counts them.
      const writer = nodes[step % 3];
      for (let i = 0; i < 5; i += 1) assert.equal((await send(writer, 'fresh-results')).status, 201);
      for (const node of nodes) assert.equal(await results(node), 5 * step, `node ${nodes.indexOf(node)} after node ${step % 3} wrote`);
      for (const node of nodes) assert.equal(await respondents(node, 'fresh-results', cluster.token), 5 * step);
    }
  });
});
