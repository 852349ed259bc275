// Block questions (seed 002, PLDP / PMOUE) over HTTP: report validation with
// core's messages (attribute set, block lengths, no extra fields such as a
// share), per-attribute marginals and a cross-tabulation chosen by the
// question's own option ("profile.crosstab"), paper mode, their errors, the
// CLI's simulate on the example, and results.csv rows.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';

import { BIN, REPO_ROOT, bearer, get, makeTempDir, postJson, removeDir, startServer } from './server_harness.mjs';

const SURVEY = {
  format: 'deniable.survey/v1', id: 'people', version: 1, title: 'People', results: 'public', access: 'open',
  questions: [
    { id: 'profile', text: 'About you', type: 'block',
      attributes: [
        { id: 'age', text: 'Age', options: ['young', 'middle', 'old'] },
        { id: 'income', text: 'Income', options: ['low', 'high'] },
        { id: 'smoker', text: 'Smoker?', options: ['no', 'yes'] },
      ],
      mechanism: { name: 'pmoue', epsilon_per_attribute: 1 } },
  ],
};

// Deterministic bit patterns (the server checks form, not randomness); every third report skips the smoker.
function report(index) {
  const attributes = index % 3 === 0 ? ['age', 'income'] : ['age', 'income', 'smoker'];
  const sizes = { age: 3, income: 2, smoker: 2 };
  const bits = attributes.map((id, a) => Array.from({ length: sizes[id] }, (_, k) => ((index + k + a) % 2)));
  return { survey: 'people', version: 1, responses: { profile: { attributes, bits } } };
}

describe('block questions', () => {
  let server;
  before(async () => {
    server = await startServer();
    assert.equal((await postJson(`${server.url}/api/surveys`, SURVEY, bearer(server.token))).status, 201);
    for (let i = 0; i < 60; i += 1) {
      const response = await postJson(`${server.url}/api/surveys/people/reports`, report(i));
      assert.equal(response.status, 201, JSON.stringify(response.body));
    }
  });
  after(async () => { await server.stop(); removeDir(server.dataDir); });

  const results = (query = '') => `${server.url}/api/surveys/people/results${query}`;
  const post = (profile) => postJson(`${server.url}/api/surveys/people/reports`,
    { survey: 'people', version: 1, responses: { profile } });

  it('rejects malformed block reports, naming what is wrong', async () => {
    const order = await post({ attributes: ['income', 'age'], bits: [[0, 1], [0, 0, 1]] });
    assert.equal(order.status, 400);
    assert.match(order.body.error.message, /profile.*attributes must be listed once each, in the block's order/);
    const length = await post({ attributes: ['age'], bits: [[0, 1]] });
    assert.equal(length.status, 400);
    assert.match(length.body.error.message, /array of 3 bits \(attribute "age"\)/);
    const share = await post({ attributes: ['age'], bits: [[0, 1, 0]], shares: [1] });
    assert.equal(share.status, 400);
    assert.match(share.body.error.message, /a block report must be/);
    const none = await post({ attributes: [], bits: [] });
    assert.equal(none.status, 400);
    assert.match(none.body.error.message, /must list 1 to 3 answered attributes/);
  });

  it('serves each attribute with its respondents, and the first two attributes cross-tabulated', async () => {
    const response = await get(results());
    assert.equal(response.status, 200);
    const profile = response.body.questions[0];
    assert.equal(profile.type, 'block');
    assert.equal(profile.n, 60);
    assert.deepEqual(profile.attributes.map((a) => [a.id, a.n]), [['age', 60], ['income', 60], ['smoker', 40]]);
    assert.equal(profile.privacy.epsilon, 3);
    assert.match(profile.privacy.note, /Theorem 3\) is false/);
    assert.deepEqual(profile.crosstab.attributes, ['age', 'income']);
    assert.equal(profile.crosstab.cells.length, 6);
    const total = profile.crosstab.cells.reduce((sum, cell) => sum + cell.consistent_frequency, 0);
    assert.ok(Math.abs(total - 1) < 1e-9);
  });

  it('cross-tabulates the attributes a question\'s own option names, in paper mode too', async () => {
    const triple = await get(results('?profile.crosstab=age,income,smoker'));
    assert.equal(triple.status, 200, JSON.stringify(triple.body));
    assert.equal(triple.body.questions[0].crosstab.cells.length, 12);
    assert.equal(triple.body.questions[0].crosstab.situation, 1);
    const paper = await get(results('?profile.mode=paper&profile.crosstab=age,smoker'));
    assert.equal(paper.status, 200);
    assert.equal(paper.body.questions[0].mode, 'paper');
    assert.equal(paper.body.questions[0].crosstab.cells[0].ci_low, null);
    assert.match(paper.body.questions[0].crosstab.note, /LASSO/);
  });

  it('names a bad cross-tab or mode', async () => {
    const unknown = await get(results('?profile.crosstab=age,job'));
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.error.message, /question "profile": crosstab: the block has no attribute "job"/);
    const twice = await get(results('?profile.crosstab=age,age'));
    assert.equal(twice.status, 400);
    assert.match(twice.body.error.message, /attribute "age" is named twice/);
    const mode = await get(results('?profile.mode=lasso'));
    assert.equal(mode.status, 400);
    assert.match(mode.body.error.message, /mode must be "calibrated" or "paper"/);
  });

  it('exports attribute options and cross-tab cells as CSV rows', async () => {
    const response = await get(`${server.url}/api/surveys/people/results.csv?profile.crosstab=age,smoker`);
    assert.equal(response.status, 200);
    // Tidy: a column per attribute, the release and options columns, no label packing several variables.
    const lines = response.body.split('\r\n');
    const header = lines[0].split(',');
    assert.deepEqual(header.slice(-7), ['release', 'release_method', 'release_epsilon', 'options', 'profile.age', 'profile.income', 'profile.smoker']);
    assert.doesNotMatch(response.body, / & |age=|age: /);
    // RFC 4180 fields, quotes kept: a quoted field may hold commas.
    const fields = (line) => {
      const out = [];
      let field = '';
      let quoted = false;
      for (const c of line) {
        if (c === '"') quoted = !quoted;
        if (c === ',' && !quoted) { out.push(field); field = ''; } else field += c;
      }
      out.push(field);
      return out;
    };
    const rows = lines.slice(1, -1).map(fields);
    const column = (name) => header.indexOf(name);
    for (const row of rows) assert.equal(row.length, header.length);
    const cell = rows.find((row) => row[column('measure')] === 'joint_frequency' && row[column('profile.age')] === 'old' && row[column('profile.smoker')] === 'yes');
    assert.ok(cell, 'the cross-tab cell (old, yes) has a column per attribute');
    assert.equal(cell[column('label')], '');
    assert.equal(cell[column('options')], '"profile.crosstab=age,smoker"', 'the options that produced the file');
    // Each row's n is its own: the smoker was answered by 40 of the 60.
    const smokerRow = rows.find((row) => row[column('measure')] === 'frequency' && row[column('profile.smoker')] === 'yes');
    assert.equal(smokerRow[column('label')], 'yes');
    assert.equal(smokerRow[column('n')], '40');
    assert.equal(smokerRow[column('profile.age')], '');
  });
});

describe('block simulation (CLI)', () => {
  it('simulates the example block and compares each attribute and the cross-tab with the truth', () => {
    const output = execFileSync(BIN, ['simulate', '--survey', path.join(REPO_ROOT, 'examples/block-survey.json'),
      '--truth', path.join(REPO_ROOT, 'examples/block-truth.json'), '--respondents', '4000', '--seed', '5', '--json'],
    { encoding: 'utf8' });
    const profile = JSON.parse(output).questions[0];
    assert.equal(profile.errors.attributes.length, 4);
    for (const attribute of profile.errors.attributes) assert.ok(attribute.avd < 0.1, JSON.stringify(attribute));
    assert.ok(profile.errors.crosstab.consistent_avd < 0.2);
    // Skipped attributes: income was skipped by a quarter of the simulated respondents.
    assert.ok(profile.attributes[1].n < 0.8 * 4000);
  });

  it('shows the paper mode\'s bias under unequal splits through --options, and names an unknown option', () => {
    const run = (extra) => JSON.parse(execFileSync(BIN, ['simulate', '--survey',
      path.join(REPO_ROOT, 'examples/block-survey.json'), '--truth', path.join(REPO_ROOT, 'examples/block-truth.json'),
      '--respondents', '6000', '--seed', '9', '--json', ...extra], { encoding: 'utf8' })).questions[0];
    const calibrated = run([]);
    const paper = run(['--options', 'profile.mode=paper']);
    assert.equal(paper.mode, 'paper');
    // The example's respondents ask for more privacy on some attributes: q(e_avg) undercounts their q's.
    for (let a = 0; a < 4; a += 1) {
      assert.ok(paper.errors.attributes[a].avd > calibrated.errors.attributes[a].avd,
        `${paper.errors.attributes[a].avd} vs ${calibrated.errors.attributes[a].avd}`);
    }
    assert.throws(() => execFileSync(BIN, ['simulate', '--survey', path.join(REPO_ROOT, 'examples/block-survey.json'),
      '--truth', path.join(REPO_ROOT, 'examples/block-truth.json'), '--respondents', '10', '--options', 'profile.mdoe=paper'],
    { encoding: 'utf8', stdio: 'pipe' }), (error) => /--options: unknown option "profile.mdoe"/.test(error.stderr));
  });

  it('takes a block\'s truth as a CSV file of records, and names a missing column', () => {
    const output = execFileSync(BIN, ['simulate', '--survey', path.join(REPO_ROOT, 'examples/block-survey.json'),
      '--truth', path.join(REPO_ROOT, 'examples/block-truth-csv.json'), '--respondents', '2000', '--seed', '3', '--json'],
    { encoding: 'utf8' });
    const profile = JSON.parse(output).questions[0];
    // The file's five records: age 18-34 in two of them.
    assert.ok(Math.abs(profile.truth.attributes[0][0] - 0.4) < 0.05);
    const dir = makeTempDir();
    fs.copyFileSync(path.join(REPO_ROOT, 'examples/block-rows.csv'), path.join(dir, 'rows.csv'));
    fs.writeFileSync(path.join(dir, 'truth.json'), JSON.stringify({ profile: { csv: 'rows.csv', columns: { age: 'agegroup' } } }));
    assert.throws(() => execFileSync(BIN, ['simulate', '--survey', path.join(REPO_ROOT, 'examples/block-survey.json'),
      '--truth', path.join(dir, 'truth.json'), '--respondents', '10'], { encoding: 'utf8', stdio: 'pipe' }),
    (error) => /truth.profile.csv: no column "agegroup" for attribute "age" in the header/.test(error.stderr));
    removeDir(dir);
  });
});
