// The command line: help, version, usage errors (exit 2), simulate and advise.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

import { DEMO_SURVEY, DEMO_TRUTH, makeTempDir, removeDir, runCli } from './server_harness.mjs';

const SIMULATE = ['simulate', '--survey', DEMO_SURVEY, '--truth', DEMO_TRUTH];

describe('help and version', () => {
  it('--version prints the version', () => {
    const result = runCli(['--version']);
    assert.equal(result.status, 0);
    assert.equal(result.stdout, 'deniable 0.1.0\n');
  });

  it('--help lists the commands; each command has --help', () => {
    const result = runCli(['--help']);
    assert.equal(result.status, 0);
    for (const command of ['serve', 'simulate', 'advise']) assert.match(result.stdout, new RegExp(`\\n  ${command} `));
    for (const command of ['serve', 'simulate', 'advise']) {
      const help = runCli([command, '--help']);
      assert.equal(help.status, 0);
      assert.match(help.stdout, new RegExp(`^Usage: deniable ${command}`));
    }
  });

  it('no command prints the usage and exits 2', () => {
    const result = runCli([]);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /^Usage: deniable/);
  });
});

describe('usage errors exit 2 and name the argument', () => {
  const cases = [
    [['frobnicate'], /unknown command "frobnicate"/],
    [['serve', '--prot', '80'], /deniable serve: unknown option --prot/],
    [['serve', '--port'], /--port needs a value/],
    [['serve', '--port', 'eighty'], /--port must be an integer from 0 to 65535, but is "eighty"/],
    [['serve', '--port', '70000'], /--port must be an integer from 0 to 65535, but is "70000"/],
    [['serve', 'extra'], /unexpected argument "extra"/],
    [[...SIMULATE, '--respondents', '0'], /--respondents must be an integer from 1 to 100000000, but is "0"/],
    [[...SIMULATE, '--respondents', '-5'], /--respondents must be an integer from 1 to 100000000, but is "-5"/],
    [[...SIMULATE, '--respondents', '10x'], /--respondents must be an integer/],
    [[...SIMULATE], /--respondents is required/],
    [['simulate', '--truth', DEMO_TRUTH, '--respondents', '10'], /--survey is required/],
    [[...SIMULATE, '--respondents', '10', '--seed', 'abc'], /--seed must be an integer/],
    [[...SIMULATE, '--respondents', '10', '--json=yes'], /--json takes no value/],
    [['advise', '--options', '5', '--epsilon', 'x', '--respondents', '10'], /--epsilon must be a finite number, but is "x"/],
    [['advise', '--options', '5', '--epsilon', '0', '--respondents', '10'], /epsilon/],
  ];
  for (const [args, expected] of cases) {
    it(args.filter((a) => !a.includes('/')).join(' '), () => {
      const result = runCli(args);
      assert.equal(result.status, 2, result.stderr);
      assert.match(result.stderr, expected);
      assert.equal(result.stdout, '');
    });
  }
});

describe('simulate', () => {
  it('--json prints the core document plus advice, deterministically for a seed', () => {
    const first = runCli([...SIMULATE, '--respondents', '2000', '--seed', '7', '--json']);
    assert.equal(first.status, 0, first.stderr);
    const second = runCli([...SIMULATE, '--respondents', '2000', '--seed', '7', '--json']);
    assert.equal(second.stdout, first.stdout);
    const other = runCli([...SIMULATE, '--respondents', '2000', '--seed', '8', '--json']);
    assert.notEqual(other.stdout, first.stdout);
    assert.match(first.stdout, /^\{\n  "questions": \[\n    \{/, 'pretty-printed with a 2-space indent');

    const document = JSON.parse(first.stdout);
    assert.equal(document.survey, 'demo');
    assert.equal(document.seed, 7);
    assert.equal(document.respondents, 2000);
    assert.equal(document.total_epsilon, 3.5);
    assert.deepEqual(document.questions.map((q) => q.id), ['drugs', 'alcohol', 'stress']);
    for (const question of document.questions) {
      assert.equal(question.n, 2000);
      assert.equal(question.truth.length, question.options.length);
      assert.deepEqual(Object.keys(question.errors).sort(), ['ci_coverage', 'consistent_l1', 'l1', 'linf', 'mse']);
      for (const key of ['label', 'count', 'frequency', 'std_error', 'ci_low', 'ci_high', 'consistent_frequency']) {
        assert.ok(key in question.options[0], key);
      }
      assert.equal(question.advice.options, question.options.length);
      assert.equal(question.advice.epsilon, question.privacy.epsilon);
      assert.equal(question.advice.respondents, 2000);
      assert.ok(['grr', 'oue', 'sue', 'negative'].includes(question.advice.recommended));
    }
  });

  it('gives advice null for a question with no formal epsilon', () => {
    const dir = makeTempDir();
    try {
      const survey = JSON.parse(fs.readFileSync(DEMO_SURVEY, 'utf8'));
      delete survey.questions[2].mechanism.epsilon;
      const file = path.join(dir, 'pure.json');
      fs.writeFileSync(file, JSON.stringify(survey));
      const result = runCli(['simulate', '--survey', file, '--truth', DEMO_TRUTH, '--respondents', '500', '--json']);
      assert.equal(result.status, 0, result.stderr);
      const document = JSON.parse(result.stdout);
      assert.equal(document.total_epsilon, null);
      assert.equal(document.questions[2].advice, null);
      const text = runCli(['simulate', '--survey', file, '--truth', DEMO_TRUTH, '--respondents', '500']);
      assert.match(text.stdout, /mechanism negative, epsilon no formal epsilon, n = 500/);
      assert.match(text.stdout, /Total epsilon per respondent: none/);
    } finally {
      removeDir(dir);
    }
  });

  it('prints a readable report per question and the total epsilon', () => {
    const result = runCli([...SIMULATE, '--respondents', '5000']);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /seed 1 /, 'default seed 1');
    assert.match(result.stdout, /Question "drugs": /);
    assert.match(result.stdout, /mechanism grr, epsilon 1, n = 5000/);
    assert.match(result.stdout, /option +truth +estimate +95% CI +consistent/);
    assert.match(result.stdout, /errors: L1 [\d.]+ +L-inf [\d.]+ +MSE \S+ +CI coverage \d of 2 options/);
    assert.match(result.stdout, /advisor for k = 5, epsilon 1, n = 5000: use \w+/);
    assert.match(result.stdout, /Total epsilon per respondent \(sequential composition\): 3\.5/);
  });

  it('reports progress on stderr for large runs', () => {
    const result = runCli([...SIMULATE, '--respondents', '200000', '--json']);
    assert.equal(result.status, 0);
    assert.match(result.stderr, /simulate: 100000\/200000 respondents\nsimulate: 200000\/200000 respondents\n/);
  });

  it('names the file and the problem: missing, not JSON, invalid survey, bad truth', () => {
    const dir = makeTempDir();
    try {
      const notJson = path.join(dir, 'not.json');
      fs.writeFileSync(notJson, '{ nope');
      const invalid = path.join(dir, 'invalid.json');
      fs.writeFileSync(invalid, JSON.stringify({ format: 'deniable.survey/v1', id: 'x', version: 1, title: 'T', questions: [] }));
      const badTruth = path.join(dir, 'truth.json');
      fs.writeFileSync(badTruth, JSON.stringify({ drugs: { frequencies: [1] } }));
      const cases = [
        [['--survey', path.join(dir, 'missing.json'), '--truth', DEMO_TRUTH], /cannot read .*missing\.json: no such file/],
        [['--survey', notJson, '--truth', DEMO_TRUTH], /not\.json: not valid JSON \(syntax error at byte \d+\)/],
        [['--survey', invalid, '--truth', DEMO_TRUTH], /invalid\.json: invalid survey: questions: must be an array of 1 to/],
        [['--survey', DEMO_SURVEY, '--truth', badTruth], /truth\.json: truth\.drugs\.frequencies: must be an array of 2/],
      ];
      for (const [args, expected] of cases) {
        const result = runCli(['simulate', ...args, '--respondents', '10']);
        assert.equal(result.status, 1);
        assert.match(result.stderr, expected);
      }
    } finally {
      removeDir(dir);
    }
  });
});

describe('advise', () => {
  it('--json prints the advisor document', () => {
    const result = runCli(['advise', '--options', '20', '--epsilon', '1', '--respondents', '1000', '--json']);
    assert.equal(result.status, 0, result.stderr);
    const advice = JSON.parse(result.stdout);
    assert.equal(advice.options, 20);
    assert.equal(advice.recommended, 'oue');
    assert.equal(advice.mechanisms.length, 5);
  });

  it('prints a table and the recommendation', () => {
    const result = runCli(['advise', '--options', '2', '--epsilon', '1', '--respondents', '1000']);
    assert.equal(result.status, 0);
    assert.match(result.stdout, /^k = 2 options, epsilon 1, n = 1000\n/);
    assert.match(result.stdout, /recommended: grr: lowest expected standard error/);
  });
});
