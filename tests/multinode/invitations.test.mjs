// One report per invitation across nodes: three nodes on one PostgreSQL
// database. A code raced at issuance from every node buys exactly one token;
// a token raced at redemption on every node sends exactly one report; the
// survey's key is one key (a token issued by one node is good on the others).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { DEMO_REPORT, readDemoSurvey } from '../server/server_harness.mjs';
import { core, finalize, issueToken, publicKey, requestEvaluation, sendWithToken } from '../server/token_client.mjs';
import { MULTINODE_SKIP, bearer, createSurvey, get, postJson, startNodes, storedReports } from './multinode_harness.mjs';

const ID = 'invited';
const report = { ...DEMO_REPORT, survey: ID };

describe('invitations across three nodes', { skip: MULTINODE_SKIP, timeout: 120000 }, () => {
  let cluster;
  let nodes;
  before(async () => {
    cluster = await startNodes({
      count: 3, label: 'invitations', nginx: false,
      first: async (node) => {
        const created = await createSurvey(node, { ...readDemoSurvey(), id: ID, access: 'invitation', results: 'admin' });
        assert.equal(created.status, 201, JSON.stringify(created.body));
      },
    });
    nodes = cluster.nodes;
  });
  after(async () => { await cluster?.stop(); });

  const codes = async (count) =>
    (await postJson(`${nodes[1].url}/api/surveys/${ID}/invitations`, { count }, bearer(cluster.token))).body.codes;
  const used = async (node) => (await get(`${node.url}/api/surveys/${ID}/invitations`, bearer(cluster.token))).body.used;

  it('every node publishes the same invitation key', async () => {
    const keys = await Promise.all(nodes.map((node) => publicKey(node.url, ID)));
    assert.equal(new Set(keys).size, 1, keys.join(' '));
  });

  it('20 codes, each raced at issuance from the three nodes with different elements: one token per code', async () => {
    const batch = await codes(20);
    const before = await used(nodes[2]);
    const races = batch.map((code) => Promise.all(nodes.map((node) => requestEvaluation(node.url, ID, code, core.tokenBlind()))));
    for (const [i, answers] of (await Promise.all(races)).entries()) {
      const statuses = answers.map((answer) => answer.status).sort();
      assert.deepEqual(statuses, [200, 403, 403], `code ${i}: ${JSON.stringify(answers.map((a) => a.body))}`);
      for (const answer of answers.filter((a) => a.status === 403)) assert.equal(answer.body.error.code, 'invitation_invalid');
    }
    for (const node of nodes) assert.equal(await used(node), before + 20);
  });

  it('a code raced with the same element on the three nodes: the same evaluation everywhere, one code spent', async () => {
    const [code] = await codes(1);
    const before = await used(nodes[0]);
    const blinded = core.tokenBlind();
    const answers = await Promise.all(nodes.map((node) => requestEvaluation(node.url, ID, code, blinded)));
    assert.deepEqual(answers.map((a) => a.status), [200, 200, 200], JSON.stringify(answers.map((a) => a.body)));
    assert.equal(new Set(answers.map((a) => a.body.evaluated_element)).size, 1);
    const key = await publicKey(nodes[0].url, ID);
    assert.equal(new Set(answers.map((a) => finalize(blinded, a.body, key).output)).size, 1);
    assert.equal(await used(nodes[0]), before + 1);
  });

  it('10 tokens, each raced at redemption on the three nodes: one report per token, the others 409 token_used', async () => {
    const batch = await codes(10);
    // Issued by node 0, 1, 2 in turn: a token is good on every node.
    const tokens = await Promise.all(batch.map((code, i) => issueToken(nodes[i % 3].url, ID, code)));
    const before = await storedReports(nodes[0], ID);
    const races = tokens.map((token) => Promise.all(nodes.map((node) => sendWithToken(node.url, ID, report, token))));
    for (const [i, answers] of (await Promise.all(races)).entries()) {
      assert.deepEqual(answers.map((a) => a.status).sort(), [201, 409, 409], `token ${i}: ${JSON.stringify(answers.map((a) => a.body))}`);
      for (const answer of answers.filter((a) => a.status === 409)) assert.equal(answer.body.error.code, 'token_used');
    }
    for (const node of nodes) assert.equal(await storedReports(node, ID), before + 10);
  });
});
