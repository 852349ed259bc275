// Never crash on any input: mutated report bodies, odd paths and raw bytes
// that are not HTTP. Inputs are generated deterministically (seeded LCG).
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';

import { DEMO_REPORT, DEMO_SURVEY, bearer, get, postJson, removeDir, startServer } from './server_harness.mjs';

// Deterministic pseudo-random integers in [0, bound) (tests must repeat exactly).
function makeRandom(seed) {
  let state = BigInt(seed);
  return (bound) => {
    state = (state * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
    return Number((state >> 33n) % BigInt(bound));
  };
}

const PIECES = ['{', '}', '[', ']', '"', ',', ':', '-1', '1e999', 'null', 'true', '"\\ud800"', '\u00ff', '\\', '0.5', '"drugs"', '9999999999999999999999'];

function mutate(text, random) {
  const chars = [...text];
  const edits = 1 + random(4);
  for (let i = 0; i < edits; i++) {
    const at = random(chars.length + 1);
    if (random(2) === 0) chars.splice(at, 1 + random(3));
    else chars.splice(at, 0, PIECES[random(PIECES.length)]);
  }
  return chars.join('');
}

function sendRaw(port, bytes) {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.setTimeout(3000, () => socket.destroy());
    socket.on('data', (chunk) => { received += chunk; });
    socket.on('close', () => resolve(received));
    socket.on('error', () => resolve(received));
    socket.on('connect', () => socket.end(bytes));
  });
}

describe('robustness', () => {
  let server;
  before(async () => { server = await startServer({ args: ['--demo', DEMO_SURVEY] }); });
  after(async () => { await server.stop(); removeDir(server.dataDir); });

  it('answers 400 or 201 with a JSON body to 300 mutated reports, and stays up', async () => {
    const random = makeRandom(12345);
    const original = JSON.stringify(DEMO_REPORT);
    for (let i = 0; i < 300; i++) {
      const response = await postJson(`${server.url}/api/surveys/demo/reports`, mutate(original, random));
      assert.ok([201, 400].includes(response.status), `status ${response.status} for input ${i}`);
      if (response.status === 400) assert.equal(typeof response.body.error.message, 'string');
    }
    assert.equal((await get(`${server.url}/api/health`)).status, 200);
  });

  it('answers mutated survey definitions with 201, 400 or 409', async () => {
    const random = makeRandom(777);
    const original = JSON.stringify({ ...(await get(`${server.url}/api/surveys/demo`)).body, id: 'fuzzed' });
    for (let i = 0; i < 150; i++) {
      const response = await postJson(`${server.url}/api/surveys`, mutate(original, random), bearer(server.token));
      assert.ok([201, 400, 409].includes(response.status), `status ${response.status} for input ${i}`);
    }
    assert.equal((await get(`${server.url}/api/health`)).status, 200);
  });

  it('survives bytes that are not HTTP and odd request lines', async () => {
    const inputs = [
      'garbage\r\n\r\n',
      'GET /api/health HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n',
      'POST /api/surveys/demo/reports HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n',
      'POST /api/surveys/demo/reports HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      `GET /${'a'.repeat(20000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      'GET /api/surveys/%ff%fe HTTP/1.1\r\nHost: x\r\n\r\n',
      '\u0000\u0001\u0002\r\n\r\n',
    ];
    for (const input of inputs) await sendRaw(server.port, input);
    const odd = await get(`${server.url}/api/%ff%fe/x`);
    assert.equal(odd.status, 404);
    assert.equal(odd.body.error.code, 'not_found');
    assert.equal((await get(`${server.url}/api/health`)).status, 200);
  });
});
