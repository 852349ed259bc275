// The server on the open internet: request limits that hold whatever the
// framing (compression, chunking, headers, declared lengths), strict JSON
// Content-Type, a real listen backlog, and slow or idle clients that cannot
// hold the server (issue 8, items 1-7). Raw sockets to 127.0.0.1 only; every
// test is bounded in time.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import zlib from 'node:zlib';
import { after, before, describe, it } from 'node:test';

import { DEMO_REPORT, DEMO_SURVEY, get, postJson, removeDir, startServer } from './server_harness.mjs';

const REPORT_PATH = '/api/surveys/demo/reports';
const REPORT = JSON.stringify(DEMO_REPORT);
const MiB = 1024 * 1024;

function rssBytes(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(status.match(/VmRSS:\s+(\d+) kB/)[1]) * 1024;
}

// Sends `head` then the chunks from `produce` (a generator of Buffers) while
// the server keeps the connection open; resolves with what the server sent
// and how long the first byte of the answer took.
function exchange(port, head, produce = null, { timeoutMs = 15000 } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let firstByteMs = null;
    let closed = false;
    let sentBytes = 0;
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on('data', (chunk) => {
      if (firstByteMs === null) firstByteMs = Date.now() - started;
      received += chunk.toString('latin1');
    });
    const finish = () => {
      closed = true;
      clearTimeout(timer);
      resolve({ received, firstByteMs, sentBytes, status: Number(received.slice(9, 12)) || null });
    };
    socket.on('close', finish);
    socket.on('error', () => {});
    socket.on('connect', async () => {
      socket.write(head);
      if (!produce) return;
      for (const chunk of produce()) {
        if (closed || socket.destroyed || received.length > 0) break;
        sentBytes += chunk.length;
        if (!socket.write(chunk)) await new Promise((r) => { socket.once('drain', r); socket.once('close', r); });
      }
    });
  });
}

function statusOf(text) {
  return Number(text.slice(9, 12));
}

function jsonBodyOf(text) {
  return JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
}

describe('request limits', () => {
  let server;
  before(async () => { server = await startServer({ args: ['--demo', DEMO_SURVEY, '--quiet'] }); });
  after(async () => { await server.stop(); removeDir(server.dataDir); });

  it('refuses a compressed body with 415 and inflates nothing (a 1000 MiB gzip bomb)', async () => {
    const rssBefore = rssBytes(server.child.pid);
    // 1000 gzip members of 1 MiB of spaces each: about 1 MB that inflates to 1000 MiB.
    const member = zlib.gzipSync(Buffer.alloc(MiB, 0x20), { level: 9 });
    const bomb = Buffer.concat(Array.from({ length: 1000 }, () => member));
    const head = `POST ${REPORT_PATH} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
      `Content-Encoding: gzip\r\nContent-Length: ${bomb.length}\r\n\r\n`;
    const answer = await exchange(server.port, head, function* () { yield bomb; });
    assert.equal(answer.status, 415);
    assert.equal(jsonBodyOf(answer.received).error.code, 'unsupported_media_type');
    assert.ok(answer.firstByteMs < 1000, `answered after ${answer.firstByteMs} ms`);
    assert.ok(rssBytes(server.child.pid) - rssBefore < 32 * MiB, 'the server inflated the body');
  });

  it('holds the 1 MiB limit for chunked bodies (3 MiB and an endless stream), and accepts a small chunked report', async () => {
    const head = `POST ${REPORT_PATH} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const chunk = Buffer.from(`10000\r\n${' '.repeat(0x10000)}\r\n`);
    const three = await exchange(server.port, head, function* () { for (let i = 0; i < 48; i++) yield chunk; });
    assert.equal(three.status, 413);
    assert.equal(jsonBodyOf(three.received).error.code, 'payload_too_large');
    // A 64 MiB stream: refused long before its end. The client counts what it
    // handed to its own socket, which includes what the kernel buffers on both
    // sides of the loopback hold (several MiB with TCP autotuning, more when the
    // machine is busy), so the bound is on the whole stream, and the server's
    // memory says it kept none of it.
    const rssBefore = rssBytes(server.child.pid);
    const endless = await exchange(server.port, head, function* () { for (let i = 0; i < 1024; i++) yield chunk; });
    assert.equal(endless.status, 413);
    assert.ok(endless.sentBytes < 32 * MiB, `the client could write ${endless.sentBytes} of 64 MiB before the refusal`);
    assert.ok(rssBytes(server.child.pid) - rssBefore < 16 * MiB, 'the server kept the streamed body');
    const body = Buffer.from(REPORT);
    const small = await exchange(server.port, head + `${body.length.toString(16)}\r\n${REPORT}\r\n0\r\n\r\n`);
    assert.equal(small.status, 201);
  });

  it('answers 431 to too many or too large headers, and does not keep their memory', async () => {
    const many = Array.from({ length: 200 }, (_, i) => `X-H${i}: v\r\n`).join('');
    const tooMany = await exchange(server.port, `GET /api/health HTTP/1.1\r\nHost: x\r\n${many}\r\n`);
    assert.equal(tooMany.status, 431);
    const big = await exchange(server.port, `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40000)}\r\n\r\n`);
    assert.equal(big.status, 431);
    const rssBefore = rssBytes(server.child.pid);
    const line = Buffer.from('X-Flood: 1\r\n'.repeat(8192));  // 96 KiB a write, 20 MiB in all
    const flood = await exchange(server.port, 'GET /api/health HTTP/1.1\r\nHost: x\r\n', function* () {
      for (let i = 0; i < 214; i++) yield line;
    });
    assert.equal(flood.status, 431);
    assert.ok(flood.sentBytes < 16 * MiB, `the server read ${flood.sentBytes} bytes of headers before refusing`);
    assert.ok(rssBytes(server.child.pid) - rssBefore < 16 * MiB);
  });

  it('answers a declared Content-Length over 1 MiB with 413 at once, unread', async () => {
    const head = `POST ${REPORT_PATH} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000000\r\n\r\n`;
    const answer = await exchange(server.port, head);
    assert.equal(answer.status, 413);
    assert.ok(answer.firstByteMs < 500, `answered after ${answer.firstByteMs} ms`);
    assert.match(jsonBodyOf(answer.received).error.message, /Content-Length 5000000 is larger than the limit/);
  });

  it('answers 400 to a JSON body without Content-Type or with another charset', async () => {
    const url = `${server.url}${REPORT_PATH}`;
    const missing = await fetch(url, { method: 'POST', body: new Blob([REPORT]) });  // a Blob with no type: no header
    assert.equal(missing.status, 400);
    assert.match((await missing.json()).error.message, /Content-Type is missing/);
    const utf16 = await postJson(url, REPORT, { 'Content-Type': 'application/json; charset=utf-16' });
    assert.equal(utf16.status, 400);
    assert.match(utf16.body.error.message, /Content-Type must be application\/json \(UTF-8\)/);
    assert.equal((await postJson(url, REPORT, { 'Content-Type': 'application/json; charset=UTF-8' })).status, 201);
  });

  it('refuses other framing tricks: both lengths, an unknown transfer coding, two different lengths', async () => {
    const both = await exchange(server.port, `POST ${REPORT_PATH} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
      'Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n');
    assert.equal(both.status, 400);
    const gzipCoding = await exchange(server.port, `POST ${REPORT_PATH} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n`);
    assert.equal(gzipCoding.status, 501);
    const twoLengths = await exchange(server.port, `POST ${REPORT_PATH} HTTP/1.1\r\nHost: x\r\n` +
      'Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}');
    assert.equal(twoLengths.status, 400);
  });

  it('answers pipelined requests in order, and honours Expect: 100-continue', async () => {
    const one = `GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n`;
    const two = `POST ${REPORT_PATH} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${REPORT.length}\r\nConnection: close\r\n\r\n${REPORT}`;
    const answer = await exchange(server.port, one + two);
    const statuses = [...answer.received.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));
    assert.deepEqual(statuses, [200, 201]);
    const expect = await new Promise((resolve) => {
      const socket = net.connect(server.port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk;
        if (received.startsWith('HTTP/1.1 100 Continue\r\n\r\n') && !socket.bodySent) {
          socket.bodySent = true;
          socket.write(REPORT);
        }
      });
      socket.on('close', () => resolve(received));
      socket.write(`POST ${REPORT_PATH} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${REPORT.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`);
    });
    assert.deepEqual([...expect.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1])), [100, 201]);
  });

  it('answers 40,000 pipelined requests on one connection in order, without deepening the stack', async () => {
    const health = 'GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n';
    const count = 40000;
    // The first request goes to a worker, so the rest is read ahead while it is handled.
    const pipeline = 'GET /api/surveys/demo HTTP/1.1\r\nHost: x\r\n\r\n' + health.repeat(count - 1) +
      'GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';
    const answers = await new Promise((resolve) => {
      const socket = net.connect(server.port, '127.0.0.1');
      let statuses = 0;
      let tail = '';
      socket.setTimeout(30000, () => socket.destroy());
      socket.on('data', (chunk) => {
        const text = tail + chunk.toString('latin1');
        statuses += (text.match(/HTTP\/1\.1 200 OK/g) ?? []).length;
        tail = text.slice(-20);
        if (tail.includes('HTTP/1.1 200 OK')) statuses -= (tail.match(/HTTP\/1\.1 200 OK/g) ?? []).length;
      });
      socket.on('close', () => resolve(statuses + (tail.match(/HTTP\/1\.1 200 OK/g) ?? []).length));
      socket.on('error', () => {});
      socket.write(pipeline);
    });
    assert.equal(answers, count + 1);
    assert.equal((await get(`${server.url}/api/health`)).status, 200);
  });

  it('answers a client that sends its request and shuts down its sending side', async () => {
    const answer = await new Promise((resolve) => {
      const socket = net.connect(server.port, '127.0.0.1');
      let received = '';
      socket.setTimeout(5000, () => socket.destroy());
      socket.on('data', (chunk) => { received += chunk; });
      socket.on('close', () => resolve(received));
      socket.on('error', () => {});
      socket.end(`POST ${REPORT_PATH} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${REPORT.length}\r\n\r\n${REPORT}`);
    });
    assert.equal(statusOf(answer), 201);
  });

  it('takes 200 connections opened at once without overflowing the listen queue', async () => {
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 200 }, () =>
      exchange(server.port, 'GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', null, { timeoutMs: 5000 })));
    const elapsed = Date.now() - started;
    assert.deepEqual([...new Set(answers.map((a) => a.status))], [200]);
    assert.ok(elapsed < 2000, `200 connections took ${elapsed} ms`);
  });
});

describe('slow and idle clients', () => {
  let server;
  before(async () => { server = await startServer({ args: ['--demo', DEMO_SURVEY, '--quiet'] }); });
  after(async () => { await server.stop(); removeDir(server.dataDir); });

  async function timed(request) {
    const started = performance.now();
    const response = await request();
    return { status: response.status, ms: performance.now() - started };
  }

  it('500 connections sending a byte a second (and 200 idle ones) delay no other client beyond 1 s, and are cut at the deadline', async () => {
    const request = Buffer.from(`POST ${REPORT_PATH} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${REPORT.length}\r\n\r\n${REPORT}`);
    const sockets = [];
    const closedAt = [];
    const started = Date.now();
    await Promise.all(Array.from({ length: 700 }, (_, i) => new Promise((resolve) => {
      const socket = net.connect(server.port, '127.0.0.1', resolve);
      socket.received = '';
      socket.on('data', (chunk) => { socket.received += chunk; });
      socket.on('error', () => {});
      socket.on('close', () => closedAt.push({ slow: i < 500, ms: Date.now() - started, received: socket.received }));
      socket.slow = i < 500;
      sockets.push(socket);
    })));
    let sent = 0;
    const trickle = setInterval(() => {
      for (const socket of sockets) {
        if (socket.slow && !socket.destroyed && sent < request.length) socket.write(request.subarray(sent, sent + 1));
      }
      sent++;
    }, 1000);
    try {
      const timings = [];
      for (let round = 0; round < 8; round++) {
        await new Promise((r) => setTimeout(r, 500));
        timings.push(await timed(() => get(`${server.url}/api/health`)));
        timings.push(await timed(() => postJson(`${server.url}${REPORT_PATH}`, REPORT)));
      }
      for (const timing of timings) {
        assert.ok(timing.status === 200 || timing.status === 201, `status ${timing.status}`);
        assert.ok(timing.ms < 1000, `a request took ${timing.ms.toFixed(0)} ms beside the slow clients`);
      }
      // The request deadline (10 s from a request's first byte) and the idle timeout (5 s) cut them off.
      const deadline = Date.now() + 14000;
      while (closedAt.length < 700 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      assert.equal(closedAt.length, 700, 'every slow or idle connection was closed by the server');
      const slow = closedAt.filter((c) => c.slow);
      assert.ok(slow.every((c) => c.received.startsWith('HTTP/1.1 408')), 'slow senders are answered 408');
      assert.ok(slow.every((c) => c.ms < 12500), 'slow senders are cut within the 10 s deadline');
      assert.ok(closedAt.filter((c) => !c.slow).every((c) => c.ms < 7000), 'idle connections are closed after 5 s');
    } finally {
      clearInterval(trickle);
      for (const socket of sockets) socket.destroy();
    }
  });
});
