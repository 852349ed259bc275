// Release ledgers across three nodes on one PostgreSQL database: releases
// raced on every node never spend past the budget; a scheduled release is made
// exactly once, by whichever node's commit crosses its count, with the global
// count; cancels raced on every node cancel once; a cancel racing the count
// that makes the release either cancels it or finds it made, never both.
// A release refused for a stale ledger (another node changed it meanwhile)
// is 409 ledger_changed, which stores nothing: the client here retries it as
// an admin would.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { MULTINODE_SKIP, bearer, createSurvey, get, postJson, sleep, startNodes, waitFor } from './multinode_harness.mjs';

const SURVEY = {
  format: 'deniable.survey/v1', id: 'conf', version: 1, title: 'In confidence', results: 'public', access: 'open',
  questions: [
    { id: 'drug', text: 'Which substance?', type: 'categorical', options: ['None', 'Cannabis', 'Other'], privacy: 'central', budget: 1 },
    { id: 'later', text: 'Optional', type: 'categorical', options: ['a', 'b'], privacy: 'central', budget: 1, required: false },
    { id: 'smoke', text: 'Smoke?', type: 'categorical', options: ['Yes', 'No'], mechanism: { name: 'grr', epsilon: 1 } },
  ],
};
const report = (i) => ({ survey: 'conf', version: 1, responses: { drug: i % 3, later: i % 2, smoke: i % 2 } });

describe('release ledgers across three nodes', { skip: MULTINODE_SKIP, timeout: 120000 }, () => {
  let cluster;
  let nodes;
  let sent = 0;
  before(async () => {
    cluster = await startNodes({
      count: 3, label: 'releases', nginx: false, first: async (node) => assert.equal((await createSurvey(node, SURVEY)).status, 201),
    });
    nodes = cluster.nodes;
    await sendReports(30);
  });
  after(async () => { await cluster?.stop(); });

  async function sendReports(count) {
    const answers = await Promise.all(Array.from({ length: count }, (_, i) =>
      postJson(`${nodes[i % 3].url}/api/surveys/conf/reports`, report(sent + i))));
    sent += count;
    for (const answer of answers) assert.equal(answer.status, 201, JSON.stringify(answer.body));
  }
  const ledger = async (node, question) => (await get(`${node.url}/api/surveys/conf/questions/${question}/releases`)).body;
  // 409 ledger_changed is retried, as its message says to.
  let retries = 0;
  async function withRetry(send) {
    for (let attempt = 0; ; attempt += 1) {
      const answer = await send();
      if (answer.status !== 409 || answer.body.error?.code !== 'ledger_changed' || attempt === 30) return answer;
      retries += 1;
      await sleep(20 + Math.random() * 30);
    }
  }
  const release = (node, question, body) => withRetry(() =>
    postJson(`${node.url}/api/surveys/conf/questions/${question}/releases`, body, bearer(cluster.token)));
  const cancel = (node, question, id) => withRetry(() =>
    postJson(`${node.url}/api/surveys/conf/questions/${question}/releases/${id}/cancel`, {}, bearer(cluster.token)));

  it('8 releases of epsilon 0.25 raced on the three nodes against a budget of 1: exactly 4 made, none past it', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => release(nodes[i % 3], 'drug', { method: 'dp_base', epsilon: 0.25 })));
    const made = answers.filter((a) => a.status === 201).length;
    console.log(`8 releases raced on 3 nodes: ${made} made, ${answers.length - made} refused budget_exceeded, ${retries} retries after ledger_changed`);
    assert.equal(made, 4, JSON.stringify(answers.map((a) => [a.status, a.body.error?.code])));
    for (const answer of answers.filter((a) => a.status !== 201)) assert.equal(answer.body.error.code, 'budget_exceeded');
    await waitFor('every node shows the 4 releases', async () =>
      (await Promise.all(nodes.map((node) => ledger(node, 'drug')))).every((l) => l.releases.length === 4), 1000);
    for (const node of nodes) {
      const seen = await ledger(node, 'drug');
      assert.ok(seen.spent <= 1 + 1e-12, `spent ${seen.spent}`);
      assert.equal(seen.left, 0);
      assert.equal(new Set(seen.releases.map((r) => r.id)).size, 4);
    }
  });

  it('a scheduled release is made exactly once when reports raced on the three nodes cross its count, with the global count', async () => {
    const at = sent + 6;
    const scheduled = await release(nodes[0], 'later', { method: 'dp_base', epsilon: 0.5, at_respondents: at });
    assert.equal(scheduled.status, 202, JSON.stringify(scheduled.body));
    await sendReports(12);
    const took = await waitFor('every node shows the scheduled release made', async () =>
      (await Promise.all(nodes.map((node) => ledger(node, 'later')))).every((l) => l.releases.length === 1 && l.scheduled.length === 0), 1000);
    console.log(`the scheduled release was seen made on every node ${took} ms after the last report's 201`);
    await sleep(300);
    for (const node of nodes) {
      const seen = await ledger(node, 'later');
      assert.equal(seen.releases.length, 1, 'made exactly once');
      assert.ok(seen.releases[0].respondents >= at && seen.releases[0].respondents <= sent, `respondents ${seen.releases[0].respondents}, at ${at}, sent ${sent}`);
      assert.equal(seen.spent, 0.5);
      assert.equal(seen.reserved, 0);
    }
  });

  it('a cancel raced on the three nodes cancels once: one 200, two 404', async () => {
    const scheduled = await release(nodes[1], 'later', { method: 'dp_base', epsilon: 0.2, at_respondents: 100000 });
    assert.equal(scheduled.status, 202, JSON.stringify(scheduled.body));
    const id = scheduled.body.scheduled.id;
    await waitFor('every node shows the schedule', async () =>
      (await Promise.all(nodes.map((node) => ledger(node, 'later')))).every((l) => l.scheduled.some((s) => s.id === id)), 1000);
    const answers = await Promise.all(nodes.map((node) => cancel(node, 'later', id)));
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 404, 404], JSON.stringify(answers.map((a) => a.body)));
    for (const node of nodes) {
      await waitFor('the cancel seen', async () => (await ledger(node, 'later')).reserved === 0, 1000);
    }
  });

  it('a cancel racing the reports that cross the count: the release is either made or cancelled, never both', async () => {
    const before = (await ledger(nodes[0], 'later')).releases.length;
    const scheduled = await release(nodes[2], 'later', { method: 'dp_base', epsilon: 0.2, at_respondents: sent + 3 });
    assert.equal(scheduled.status, 202, JSON.stringify(scheduled.body));
    const id = scheduled.body.scheduled.id;
    const [cancelled] = await Promise.all([cancel(nodes[0], 'later', id), sendReports(6)]);
    assert.ok([200, 404].includes(cancelled.status), JSON.stringify(cancelled.body));
    await sleep(1000);
    for (const node of nodes) {
      const seen = await ledger(node, 'later');
      assert.equal(seen.scheduled.length, 0);
      assert.equal(seen.releases.length, before + (cancelled.status === 200 ? 0 : 1), `cancel answered ${cancelled.status}`);
      assert.ok(Math.abs(seen.spent - (cancelled.status === 200 ? 0.5 : 0.7)) < 1e-9, `spent ${seen.spent}`);
    }
  });
});
