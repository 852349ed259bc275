// Nothing in the data directory's files pairs an invitation code with its
// report (issue 8, item 9). While respondents send reports one after another,
// the database, its write-ahead log and its index are copied again and again
// (and once more after kill -9); an attacker who knows every code and every
// report reads each copy as SQLite would: commit by commit, which codes turn
// "used" and which reports appear, pairing a spent code with a report that
// appears in the same commit or the next one. It must do no better than
// chance. The same attacker, run on files written the old way (code and
// report in one transaction), pairs nearly all of them: the attack has teeth.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { it } from 'node:test';

import { bearer, makeTempDir, postJson, removeDir, startServer } from './server_harness.mjs';

const RESPONDENTS = 40;
const SURVEY = {
  format: 'deniable.survey/v1', id: 'invited', version: 1, title: 'Sleep', results: 'admin', access: 'invitation',
  questions: [{ id: 'sleep', text: 'Hours of sleep?', type: 'numeric', range: [0, 12], mechanism: { name: 'square_wave', epsilon: 2 } }],
};
// Report i carries a value no other report has, so the attacker can find it in any page.
const reportValue = (i) => Number((1 + i * 0.173205).toFixed(6));
const reportOf = (i) => ({ survey: 'invited', version: 1, responses: { sleep: [reportValue(i)] } });
const hashOf = (code) => createHash('sha256').update(code).digest('hex');

// --- the attacker ------------------------------------------------------------------

// The write-ahead log's commits, each the page images it wrote (only frames
// of the log's current generation: salts as in its header).
function walCommits(wal) {
  if (wal.length < 32) return [];
  const pageSize = wal.readUInt32BE(8);
  const salt1 = wal.readUInt32BE(16);
  const salt2 = wal.readUInt32BE(20);
  const commits = [];
  let pages = [];
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salt1 || wal.readUInt32BE(at + 12) !== salt2) break;
    pages.push(wal.subarray(at + 24, at + 24 + pageSize));
    if (wal.readUInt32BE(at + 4) !== 0) {  // a commit frame
      commits.push(Buffer.concat(pages));
      pages = [];
    }
  }
  return commits;
}

// Codes whose row in these bytes says "used" (the record's last header byte is
// serial type 9 for the integer 1, 8 for 0, just before the survey id).
function usedCodes(bytes, codes) {
  const used = new Set();
  for (const code of codes) {
    const needle = Buffer.from('invited' + hashOf(code));
    for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + 1)) {
      if (bytes[at - 1] === 9) used.add(code);
    }
  }
  return used;
}

function presentReports(bytes) {
  const present = new Set();
  for (let i = 0; i < RESPONDENTS; i++) if (bytes.includes(`[${reportValue(i)}]`)) present.add(i);
  return present;
}

// Pairs (code, report index) guessed from one copy: events in log order, each
// spent code paired with the reports that appear in its commit or, if none,
// the next commit that adds reports.
function attack(copy, codes) {
  const before = fs.readFileSync(path.join(copy, 'deniable.sqlite3'));
  let knownUsed = usedCodes(before, codes);
  let knownReports = presentReports(before);
  const walFile = path.join(copy, 'deniable.sqlite3-wal');
  const commits = fs.existsSync(walFile) ? walCommits(fs.readFileSync(walFile)) : [];
  const guesses = [];
  let waiting = [];
  for (const commit of commits) {
    const spent = [...usedCodes(commit, codes)].filter((code) => !knownUsed.has(code));
    const added = [...presentReports(commit)].filter((i) => !knownReports.has(i));
    waiting.push(...spent);
    if (added.length > 0 && waiting.length > 0) {
      waiting.forEach((code, k) => guesses.push([code, added[k % added.length]]));
      waiting = [];
    }
    knownUsed = new Set([...knownUsed, ...spent]);
    knownReports = new Set([...knownReports, ...added]);
  }
  return guesses;
}

function copyFiles(dataDir, into) {
  fs.mkdirSync(into);
  for (const name of ['deniable.sqlite3', 'deniable.sqlite3-wal', 'deniable.sqlite3-shm']) {
    // Read and write, not copyFileSync: libuv's copy loops forever on a file truncated mid-copy.
    let bytes;
    try { bytes = fs.readFileSync(path.join(dataDir, name)); } catch { continue; /* not there at this moment */ }
    fs.writeFileSync(path.join(into, name), bytes);
  }
}

function score(copies, codes) {
  const correct = new Set();
  let guesses = 0;
  for (const copy of copies) {
    if (!fs.existsSync(path.join(copy, 'deniable.sqlite3'))) continue;
    for (const [code, report] of attack(copy, codes)) {
      guesses++;
      if (codes.indexOf(code) === report) correct.add(`${code}:${report}`);
    }
  }
  return { correct: correct.size, guesses };
}

it('no copy of the data files taken during a run, or after kill -9, pairs codes with reports better than chance', async () => {
  const server = await startServer();
  const copiesDir = makeTempDir('deniable-copies-');
  const copies = [];
  try {
    assert.equal((await postJson(`${server.url}/api/surveys`, SURVEY, bearer(server.token))).status, 201);
    const invited = await postJson(`${server.url}/api/surveys/invited/invitations`, { count: RESPONDENTS }, bearer(server.token));
    const codes = invited.body.codes;
    for (let i = 0; i < RESPONDENTS; i++) {
      // Copies are taken while the server handles the report, then right after its 201.
      let answered = null;
      const sending = postJson(`${server.url}/api/surveys/invited/reports`, reportOf(i), { 'X-Invitation-Code': codes[i] })
        .then((response) => { answered = response; });
      for (let k = 0; answered === null && k < 15; k++) {
        const into = path.join(copiesDir, `${i}-${k}`);
        copyFiles(server.dataDir, into);
        copies.push(into);
        await new Promise((resolve) => setImmediate(resolve));
      }
      await sending;
      assert.equal(answered.status, 201);
      const into = path.join(copiesDir, `after-${i}`);
      copyFiles(server.dataDir, into);
      copies.push(into);
    }
    await server.kill9();
    const crashed = path.join(copiesDir, 'after-kill');
    copyFiles(server.dataDir, crashed);
    copies.push(crashed);

    const { correct, guesses } = score(copies, codes);
    // Chance: a guess names the right report with probability 1/RESPONDENTS.
    const chance = guesses / RESPONDENTS;
    assert.ok(correct <= Math.max(1, chance + 3 * Math.sqrt(chance)),
      `the attacker paired ${correct} codes with their reports in ${guesses} guesses over ${copies.length} copies`);

    // Arrival order: the stored order of reports says nothing of who came when.
    const stored = spawnSync('sqlite3', [path.join(crashed, 'deniable.sqlite3'), 'SELECT body FROM sealed_reports ORDER BY id'], { encoding: 'utf8' });
    if (!stored.error) {
      const order = stored.stdout.trim().split('\n').map((body) => JSON.parse(body).responses.sleep[0]);
      assert.equal(order.length, RESPONDENTS);
      const ranks = order.map((value) => Array.from({ length: RESPONDENTS }, (_, i) => reportValue(i)).indexOf(value));
      const n = RESPONDENTS;
      const rho = 1 - (6 * ranks.reduce((sum, rank, position) => sum + (rank - position) ** 2, 0)) / (n * (n * n - 1));
      assert.ok(Math.abs(rho) < 3 / Math.sqrt(n - 1), `stored order correlates with arrival order (Spearman ${rho.toFixed(2)})`);
    }
  } finally {
    await server.stop();
    removeDir(server.dataDir);
    removeDir(copiesDir);
  }
});

it('the same attacker pairs codes and reports stored the old way (one transaction each)', { skip: spawnSync('sqlite3', ['-version']).error ? 'no sqlite3 CLI' : false }, async () => {
  const dir = makeTempDir();
  try {
    const codes = Array.from({ length: 10 }, (_, i) => `code${i}`.padEnd(26, 'x'));
    const sql = ['PRAGMA journal_mode=WAL;', 'PRAGMA wal_autocheckpoint=0;',
      'CREATE TABLE reports (survey_id TEXT NOT NULL, body TEXT NOT NULL);',
      'CREATE TABLE invitations (survey_id TEXT NOT NULL, code_hash TEXT NOT NULL, used INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (survey_id, code_hash)) WITHOUT ROWID;',
      ...codes.map((code) => `INSERT INTO invitations VALUES ('invited', '${hashOf(code)}', 0);`),
      'PRAGMA wal_checkpoint(TRUNCATE);',
      ...codes.map((code, i) => `BEGIN; UPDATE invitations SET used = 1 WHERE code_hash = '${hashOf(code)}'; ` +
        `INSERT INTO reports VALUES ('invited', '${JSON.stringify(reportOf(i))}'); COMMIT;`)];
    const cli = spawn('sqlite3', [path.join(dir, 'deniable.sqlite3')], { stdio: ['pipe', 'ignore', 'inherit'] });
    cli.stdin.write(sql.join('\n') + '\n');
    await new Promise((resolve) => setTimeout(resolve, 1000));  // the session is still open: the log is intact
    const copy = path.join(dir, 'copy');
    copyFiles(dir, copy);
    cli.stdin.end();
    await new Promise((resolve) => cli.once('exit', resolve));
    const { correct } = score([copy], codes);
    assert.ok(correct >= 9, `the attacker paired only ${correct} of 10 in the old layout`);
  } finally {
    removeDir(dir);
  }
});
