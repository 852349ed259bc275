// A model's round takes exactly its batch when its reports race across
// three nodes on one PostgreSQL database: admission decides against the
// global state inside the transaction, so no node adds a report to a round
// another node has closed, and every node then shows the next round.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { MULTINODE_SKIP, createSurvey, get, postJson, startNodes, waitFor } from './multinode_harness.mjs';

const BATCH = 4;
const MODEL = {
  format: 'deniable.survey/v1', id: 'model', version: 1, title: 'Model', results: 'public', access: 'open',
  questions: [
    { id: 'x', text: 'x?', type: 'numeric', range: [0, 10], required: false, mechanism: { name: 'duchi', epsilon: 1 } },
    { id: 'y', text: 'y?', type: 'numeric', range: [0, 10], required: false, mechanism: { name: 'duchi', epsilon: 1 } },
    { id: 'fit', text: 'y by x', type: 'linear_regression', target: 'y', features: ['x'], epsilon: 1, batch: BATCH },
  ],
};
const modelReport = (round, component) => ({ survey: 'model', version: 1, responses: { fit: { round, component, value: 0.25 } } });

describe('model rounds across three nodes', { skip: MULTINODE_SKIP, timeout: 120000 }, () => {
  let cluster;
  let nodes;
  before(async () => {
    cluster = await startNodes({
      count: 3, label: 'rounds', nginx: false, first: async (node) => assert.equal((await createSurvey(node, MODEL)).status, 201),
    });
    nodes = cluster.nodes;
  });
  after(async () => { await cluster?.stop(); });

  const state = async (node) => (await get(`${node.url}/api/surveys/model/state`)).body.questions.fit;

  it('three rounds, each raced by 24 reports spread over the nodes: each takes exactly its batch', async () => {
    for (let round = 1; round <= 3; round += 1) {
      await waitFor(`every node shows round ${round}`, async () => (await Promise.all(nodes.map(state))).every((s) => s.round === round), 1000);
      const sends = Array.from({ length: 24 }, (_, i) => postJson(`${nodes[i % 3].url}/api/surveys/model/reports`, modelReport(round, i % 2)));
      const answers = await Promise.all(sends);
      const accepted = answers.filter((a) => a.status === 201).length;
      const refused = answers.filter((a) => a.status === 409 && a.body.error.code === 'report_not_admitted').length;
      assert.equal(accepted, BATCH, `round ${round} takes exactly its batch: ${JSON.stringify(answers.map((a) => a.status))}`);
      assert.equal(refused, 24 - BATCH);
      const took = await waitFor(`every node shows round ${round + 1}`,
        async () => (await Promise.all(nodes.map(state))).every((s) => s.round === round + 1 && s.reports_in_round === 0), 1000);
      console.log(`round ${round}: ${accepted} accepted of 24; every node at round ${round + 1} after ${took} ms`);
    }
    for (const node of nodes) {
      const rounds = (await get(`${node.url}/api/surveys/model/results`)).body.questions[2].rounds;
      for (let round = 1; round <= 3; round += 1) {
        assert.equal(rounds.find((entry) => entry.round === round).reports, BATCH, JSON.stringify(rounds));
      }
    }
  });
});
