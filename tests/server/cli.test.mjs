// The command line: help, version, usage errors (exit 2), simulate and advise.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';

import { DEMO_SURVEY, DEMO_TRUTH, makeTempDir, removeDir, runCli } from './server_harness.mjs';

const SIMULATE = ['simulate', '--survey', DEMO_SURVEY, '--truth', DEMO_TRUTH];
const EXAMPLES = path.resolve(path.dirname(DEMO_SURVEY));
const NUMERIC_SURVEY = path.join(EXAMPLES, 'numeric-survey.json');
const NUMERIC_TRUTH = path.join(EXAMPLES, 'numeric-truth.json');
const NUMERIC_CSV_TRUTH = path.join(EXAMPLES, 'numeric-truth-csv.json');
const SIMULATE_NUMERIC = ['simulate', '--survey', NUMERIC_SURVEY, '--truth', NUMERIC_TRUTH];
const NUMERIC_STATISTICS = ['lower_quartile', 'mean', 'median', 'std_dev', 'upper_quartile'];

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
    [['serve', '--port', '80', '--port', '81'], /--port is given more than once/],
    [['serve', '--demo', ''], /--demo must not be empty/],
    [[...SIMULATE, '--respondents', '0'], /--respondents must be an integer from 1 to 100000000, but is "0"/],
    [[...SIMULATE, '--respondents', '-5'], /--respondents must be an integer from 1 to 100000000, but is "-5"/],
    [[...SIMULATE, '--respondents', '10x'], /--respondents must be an integer/],
    [[...SIMULATE], /--respondents is required/],
    [['simulate', '--truth', DEMO_TRUTH, '--respondents', '10'], /--survey is required/],
    [[...SIMULATE, '--respondents', '10', '--seed', 'abc'], /--seed must be an integer/],
    [[...SIMULATE, '--respondents', '10', '--json=yes'], /--json takes no value/],
    [[...SIMULATE, '--respondents', '10', '--estimator', 'kde'], /--estimator must be pml, ems, em or kde_sqp, but is "kde"/],
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
      assert.deepEqual(Object.keys(question.errors).sort(),
        ['ci_coverage', 'ci_target', 'consistent_l1', 'l1', 'linf', 'mse']);
      assert.equal(question.errors.ci_target, 'population', 'intervals are checked against their own target');
      assert.equal(question.interval_for.target, 'population');
      assert.equal(question.population.length, question.options.length);
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

  it('checks intervals against their own target: --options interval=respondents, and names a bad value', () => {
    const result = runCli([...SIMULATE, '--respondents', '2000', '--options', 'interval=respondents', '--json']);
    assert.equal(result.status, 0, result.stderr);
    for (const question of JSON.parse(result.stdout).questions) {
      assert.equal(question.interval_for.target, 'respondents');
      assert.equal(question.errors.ci_target, 'respondents');
    }
    const bad = runCli([...SIMULATE, '--respondents', '100', '--options', 'interval=all']);
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /interval must be "population" \(the default\) or "respondents", but is "all"/);
  });

  it('prints a readable report per question and the total epsilon', () => {
    const result = runCli([...SIMULATE, '--respondents', '5000']);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /seed 1 /, 'default seed 1');
    assert.match(result.stdout, /Question "drugs": /);
    assert.match(result.stdout, /mechanism grr, epsilon 1, n = 5000/);
    assert.match(result.stdout, /option +population +truth +estimate +95% CI +consistent/);
    assert.match(result.stdout, /errors: L1 [\d.]+ +L-inf [\d.]+ +MSE \S+ +CI coverage \d of 2 options \(of the population's frequencies\)/);
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

describe('simulate with numeric questions', () => {
  it('--json adds truth and errors to each numeric result, deterministically for a seed', () => {
    const first = runCli([...SIMULATE_NUMERIC, '--respondents', '3000', '--seed', '5', '--json']);
    assert.equal(first.status, 0, first.stderr);
    const again = runCli([...SIMULATE_NUMERIC, '--respondents', '3000', '--seed', '5', '--json']);
    assert.equal(again.stdout, first.stdout);
    const document = JSON.parse(first.stdout);
    assert.equal(document.seed, 5);
    assert.equal(document.total_epsilon, null, 'RVNS has no formal epsilon');
    assert.deepEqual(document.questions.map((q) => [q.id, q.type ?? 'categorical']),
      [['bmi', 'numeric'], ['sleep', 'numeric'], ['commute', 'numeric'], ['smoker', 'categorical']]);
    for (const question of document.questions.slice(0, 3)) {
      assert.equal(question.n, 3000);
      assert.deepEqual(Object.keys(question.truth).sort(), NUMERIC_STATISTICS);
      assert.deepEqual(Object.keys(question.errors).sort(),
        ['mean', 'mean_covered', 'mechanism_mean_covered', 'median', 'std_dev', 'unbiased_mean_covered', 'wasserstein1']);
      assert.equal(typeof question.errors.mean_covered, 'boolean');
      assert.ok(question.errors.wasserstein1 > 0);
      // Well under a tenth of the range at n = 3000 (measured: about 1% to 3%).
      assert.ok(question.errors.wasserstein1 < (question.range[1] - question.range[0]) / 10, question.id);
      const [low, high] = question.range;
      for (const key of ['mean', 'median', 'lower_quartile', 'upper_quartile']) {
        assert.ok(question.truth[key] >= low && question.truth[key] <= high, `${question.id} ${key}`);
      }
      assert.ok(question.truth.std_dev > 0 && question.truth.std_dev <= (high - low) / 2);
      assert.equal(question.advice, null, 'the advisor is for categorical questions');
    }
    const [bmi, sleep, commute] = document.questions;
    assert.equal(bmi.privacy.epsilon, null);
    assert.equal(sleep.privacy.epsilon, 2);
    assert.equal(sleep.errors.unbiased_mean_covered, null, 'Square Wave has no unbiased mean');
    assert.equal(typeof commute.errors.unbiased_mean_covered, 'boolean', 'Piecewise has one');
    // chi-square(3) x 10 truncated to [0, 120]: mean about 30.
    assert.ok(Math.abs(commute.truth.mean - 30) < 2, String(commute.truth.mean));
    assert.equal(document.questions[3].errors.l1 >= 0, true, 'categorical questions keep their metrics');
  });

  it('prints per numeric question the mechanism, epsilon, n, a statistics table and the W1 error', () => {
    const result = runCli([...SIMULATE_NUMERIC, '--respondents', '2000']);
    assert.equal(result.status, 0, result.stderr);
    const text = result.stdout;
    assert.match(text, /Question "bmi": What is your body mass index\?\n  numeric in \[10, 60\] kg\/m2, mechanism rvns \(values 2, window 5, window_mode fresh\), no formal epsilon, n = 2000, estimator pml, curvature penalty 0\.00063\n/);
    assert.match(text, /mechanism square_wave \(epsilon 2\), epsilon 2, n = 2000/);
    assert.match(text, /  statistic +truth +estimate +95% interval\n  mean +[\d.]+ +[\d.]+ +\[[\d.]+, [\d.]+\]\n/);
    for (const name of ['std_dev', 'median', 'lower_quartile', 'upper_quartile']) assert.match(text, new RegExp(`\n  ${name} +[\\d.]+`));
    assert.match(text, /  unbiased mean +[\d.]+/);
    assert.match(text, /errors: W1 [\d.]+ hours \(reconstructed vs true answers' distribution\)/);
    assert.match(text, /true mean \(its interval's target\) inside the 95% interval: (yes|no); inside the unbiased mean's CI: (yes|no)/);
    assert.match(text, /\n  intervals: bias_aware parametric bootstrap, \d+ replicates drawn from a less smoothed fit; quartiles widened for the estimator's blur; mean, sd, skewness and kurtosis hold the reports' own moment intervals; for the population\n  errors: W1/);
    // A statistic's note, when it has one, follows its row.
    for (const line of text.split('\n').filter((l) => /^ {6}(unreliable|not shown): /.test(l))) assert.match(line, /: (depends on the smoothing|limited by the resolution|too few reports|not identifiable)/);
    assert.match(text, /Total epsilon per respondent: none/);
  });

  it('reports progress on stderr for large numeric runs', () => {
    const result = runCli([...SIMULATE_NUMERIC, '--respondents', '200000', '--json']);
    assert.equal(result.status, 0);
    assert.equal(result.stderr, 'simulate: 100000/200000 respondents\nsimulate: 200000/200000 respondents\n');
    const document = JSON.parse(result.stdout);
    // At n = 200000 the reconstructions are close: W1 under 2% of the range for each mechanism.
    for (const question of document.questions.slice(0, 3)) {
      assert.ok(question.errors.wasserstein1 < (question.range[1] - question.range[0]) / 50,
        `${question.id}: W1 ${question.errors.wasserstein1}`);
    }
  });

  it('--curvature-penalty sets PML\'s lambda, reported per question; it needs pml and a number', () => {
    const chosen = runCli([...SIMULATE_NUMERIC, '--respondents', '500', '--curvature-penalty', '0.5', '--json']);
    assert.equal(chosen.status, 0, chosen.stderr);
    for (const question of JSON.parse(chosen.stdout).questions.filter((q) => q.type === 'numeric')) {
      assert.equal(question.curvature_penalty, 0.5, question.id);
    }
    const ems = runCli([...SIMULATE_NUMERIC, '--respondents', '500', '--estimator', 'ems', '--curvature-penalty', '1']);
    assert.equal(ems.status, 1);
    assert.match(ems.stderr, /^deniable simulate: --estimator\/--curvature-penalty: question \w+: curvature_penalty applies only to estimator pml\n$/);
    const word = runCli([...SIMULATE_NUMERIC, '--respondents', '500', '--curvature-penalty', 'smooth']);
    assert.equal(word.status, 2);
    assert.match(word.stderr, /--curvature-penalty/);
  });

  it('--estimator chooses the numeric estimator; kde_sqp only where every numeric question is rvns', () => {
    const em = runCli([...SIMULATE_NUMERIC, '--respondents', '500', '--estimator', 'em', '--json']);
    assert.equal(em.status, 0, em.stderr);
    assert.deepEqual(JSON.parse(em.stdout).questions.slice(0, 3).map((q) => q.estimator), ['em', 'em', 'em']);
    const kde = runCli([...SIMULATE_NUMERIC, '--respondents', '500', '--estimator', 'kde_sqp']);
    assert.equal(kde.status, 1);
    assert.equal(kde.stderr,
      'deniable simulate: --estimator: question sleep: estimator kde_sqp (the RVNS paper\'s) applies only to rvns questions\n');
  });

  it('reads a CSV column as a truth (by header name or 0-based index), relative to the truth file', () => {
    const result = runCli(['simulate', '--survey', NUMERIC_SURVEY, '--truth', NUMERIC_CSV_TRUTH, '--respondents', '4000',
      '--json']);
    assert.equal(result.status, 0, result.stderr);
    const [bmi, sleep, commute] = JSON.parse(result.stdout).questions;
    // The rows are resampled: the truth is close to the column's own statistics.
    const csv = fs.readFileSync(path.join(EXAMPLES, 'numeric-sample.csv'), 'utf8').trim().split('\n').slice(1)
      .map((line) => line.split(',').map(Number));
    const mean = (column) => csv.reduce((sum, row) => sum + row[column], 0) / csv.length;
    assert.ok(Math.abs(bmi.truth.mean - mean(1)) < 0.3, `${bmi.truth.mean} vs ${mean(1)}`);
    assert.ok(Math.abs(sleep.truth.mean - mean(2)) < 0.1, `${sleep.truth.mean} vs ${mean(2)}`);
    assert.ok(Math.abs(commute.truth.mean - mean(3)) < 2, `${commute.truth.mean} vs ${mean(3)}`);
  });

  it('names the file, the row and the field for bad numeric truths', () => {
    const dir = makeTempDir();
    try {
      const write = (name, content) => {
        const file = path.join(dir, name);
        fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
        return file;
      };
      write('data.csv', 'id,bmi\n1,22.5\n2,"31"\n3,75\n');
      write('text.csv', 'id,bmi\n1,22.5\n2,heavy\n');
      const truth = (bmi) => ({ bmi, sleep: { distribution: 'uniform' }, commute: { distribution: 'uniform' },
        smoker: { frequencies: [1, 1] } });
      const cases = [
        [truth({ csv: 'data.csv', column: 'bmi' }), /truth\.json: .*data\.csv row 4, column "bmi": 75 is outside the question's range \[10, 60\]/],
        [truth({ csv: 'text.csv', column: 1 }), /text\.csv row 3, column 1: not a number: "heavy"/],
        [truth({ csv: 'data.csv', column: 'weight' }), /truth\.bmi\.column: no column named "weight" in the header/],
        [truth({ csv: 'data.csv', column: 5 }), /truth\.bmi\.column: index 5 is outside the header's 2 columns \(0-based\)/],
        [truth({ csv: 'data.csv' }), /truth\.bmi\.column: required field is missing/],
        [truth({ csv: 'absent.csv', column: 0 }), /truth\.bmi\.csv: cannot read .*absent\.csv/],
        [truth({ distribution: 'normal', mean: 25 }), /truth\.json: truth\.bmi\.sd: required field is missing/],
        [truth({ distribution: 'poisson' }), /truth\.bmi\.distribution: must be "uniform", "normal", "chi_square" or "mixture", but is "poisson"/],
        [truth({ frequencies: [1, 2] }), /truth\.bmi: /],
      ];
      for (const [content, expected] of cases) {
        const file = write('truth.json', content);
        const result = runCli(['simulate', '--survey', NUMERIC_SURVEY, '--truth', file, '--respondents', '10']);
        assert.equal(result.status, 1, JSON.stringify(content));
        assert.match(result.stderr, expected);
        assert.equal(result.stdout, '');
      }
      // Quoted fields are read as their text, CRLF line ends and blank lines are accepted.
      write('quoted.csv', 'id,"bmi"\r\n1,22.5\r\n\r\n2,"31"\r\n');
      const ok = write('truth.json', truth({ csv: 'quoted.csv', column: 'bmi' }));
      const result = runCli(['simulate', '--survey', NUMERIC_SURVEY, '--truth', ok, '--respondents', '200', '--json']);
      assert.equal(result.status, 0, result.stderr);
      const bmi = JSON.parse(result.stdout).questions[0];
      assert.equal(bmi.truth.lower_quartile, 22.5);
      assert.equal(bmi.truth.upper_quartile, 31);
    } finally {
      removeDir(dir);
    }
  });
});

describe('simulate from real rows', () => {
  it('draws whole rows: questions reading one file see the same respondent; a model and a question answered in confidence too', () => {
    const dir = makeTempDir();
    try {
      const rows = Array.from({ length: 60 }, (_, i) => {
        const educ = (i % 16) + 1;
        return [educ, 5 + 2 * educ + (((i * 7) % 5) - 2)];
      });
      fs.writeFileSync(path.join(dir, 'people.csv'), `educ,wage\n${rows.map((row) => row.join(',')).join('\n')}\n`);
      const numeric = (id, high) => ({ id, text: id, type: 'numeric', range: [0, high], mechanism: { name: 'duchi', epsilon: 1 } });
      const survey = {
        format: 'deniable.survey/v1', id: 'rows', version: 1, title: 'Rows',
        questions: [numeric('educ', 20), numeric('again', 20), numeric('wage', 60),
          { id: 'pay', text: 'Pay', type: 'histogram', range: [0, 60], histograms: [{ name: 'quarters', bins: 4 }],
            privacy: 'central', budget: 1 },
          { id: 'fit', text: 'Fit', type: 'linear_regression', target: 'wage', features: ['educ'], epsilon: 1, batch: 100 }],
      };
      const truth = {
        educ: { csv: 'people.csv', column: 'educ' }, again: { csv: 'people.csv', column: 0 },
        wage: { csv: 'people.csv', column: 'wage' }, pay: { csv: 'people.csv', column: 'wage' }, fit: { csv: 'people.csv' },
      };
      fs.writeFileSync(path.join(dir, 'survey.json'), JSON.stringify(survey));
      fs.writeFileSync(path.join(dir, 'truth.json'), JSON.stringify(truth));
      const args = ['simulate', '--survey', path.join(dir, 'survey.json'), '--truth', path.join(dir, 'truth.json'),
        '--respondents', '1000', '--estimator', 'em'];
      const result = runCli([...args, '--json']);
      assert.equal(result.status, 0, result.stderr);
      const [educ, again, , pay, fit] = JSON.parse(result.stdout).questions;
      // One row per respondent: the two questions reading the same column drew the same answers.
      assert.deepEqual(again.truth, educ.truth);
      // The model's truth is least squares on the whole file.
      const n = rows.length;
      const sx = rows.reduce((s, r) => s + r[0], 0), sy = rows.reduce((s, r) => s + r[1], 0);
      const sxx = rows.reduce((s, r) => s + r[0] * r[0], 0), sxy = rows.reduce((s, r) => s + r[0] * r[1], 0);
      const slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
      assert.ok(Math.abs(fit.truth.coefficients_raw[1] - slope) < 1e-9, `${fit.truth.coefficients_raw} vs slope ${slope}`);
      assert.equal(fit.truth.rows, 60);
      // The question answered in confidence: the three methods' releases on the simulated counts, with their errors.
      assert.equal(pay.truth.counts.reduce((s, c) => s + c, 0), 1000);
      assert.deepEqual(pay.errors.releases.map((r) => r.method), ['sreb_gca', 'dp_base', 'ahp']);
      assert.ok(pay.releases.every((r) => r.respondents === 1000));
      assert.equal(pay.advice.kind, 'central_release');
      assert.deepEqual(pay.advice.consumers.map((c) => c.name), ['bins', 'quarters']);
      const text = runCli(args);
      assert.equal(text.status, 0, text.stderr);
      assert.match(text.stdout, /releases made on their exact counts/);
      assert.match(text.stdout, /sim2 +dp_base +1 /);
      assert.match(text.stdout, /advisor \(public shapes, n = 1000\): bins -> /);
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

describe('simulate --post', () => {
  it('sends the simulated reports to a running server, whose results are then the simulation\'s', async () => {
    const { startServer, get } = await import('./server_harness.mjs');
    const server = await startServer({ args: ['--demo', DEMO_SURVEY] });
    try {
      const { spawn } = await import('node:child_process');
      const { BIN } = await import('./server_harness.mjs');
      // Spawned, not spawnSync: this process must go on reading the server's output meanwhile.
      const result = await new Promise((resolve) => {
        const child = spawn(BIN, [...SIMULATE, '--respondents', '300', '--seed', '4', '--json', '--post', server.url]);
        let stdout = '', stderr = '';
        child.stdout.on('data', (chunk) => { stdout += chunk; });
        child.stderr.on('data', (chunk) => { stderr += chunk; });
        child.on('exit', (status) => resolve({ status, stdout, stderr }));
      });
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stderr, /simulate: posted 300\/300 reports/);
      const simulated = JSON.parse(result.stdout);
      const served = (await get(`${server.url}/api/surveys/demo/results`)).body;
      assert.equal(served.respondents, 300);
      for (let q = 0; q < served.questions.length; q += 1) {
        assert.deepEqual(served.questions[q].options.map((o) => o.frequency), simulated.questions[q].options.map((o) => o.frequency));
      }
      const missing = runCli(['simulate', '--survey', NUMERIC_SURVEY, '--truth', NUMERIC_TRUTH, '--respondents', '5', '--post', server.url]);
      assert.equal(missing.status, 1);
      assert.match(missing.stderr, /report 1 of 5: --post: the server answered 404: .*survey_not_found/);
    } finally {
      await server.stop();
    }
    const badUrl = runCli([...SIMULATE, '--respondents', '5', '--post', 'localhost:8080']);
    assert.equal(badUrl.status, 1);
    assert.match(badUrl.stderr, /--post must be a server's address like http:\/\/127\.0\.0\.1:8080, but is "localhost:8080"/);
    const withPath = runCli([...SIMULATE, '--respondents', '5', '--post', 'http://127.0.0.1:1/api']);
    assert.match(withPath.stderr, /without a path/);
  });
});
