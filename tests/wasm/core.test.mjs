// The WebAssembly core through web/src/core.js: the API of common.md
// ("WebAssembly API"), its randomness, and its errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { loadCore } from '../../web/src/core.js';

const REPO = new URL('../../', import.meta.url);
const DEMO = JSON.parse(readFileSync(new URL('examples/demo-survey.json', REPO), 'utf8'));
const DEMO_ANSWERS = { drugs: 0, alcohol: 3, stress: 5 };
const Z95 = 1.959963984540054;

const core = await loadCore();
// The full module's factory, called directly (the wrapper cannot send what some tests send).
async function rawCoreModule() {
  const { default: createDeniableCore } = await import('../../web/src/generated/deniable_core.mjs');
  return createDeniableCore({ wasmBinary: readFileSync(new URL('web/src/generated/deniable_core.wasm', REPO)) });
}

function survey(questions) {
  return { format: 'deniable.survey/v1', id: 'wasm-test', version: 2, title: 'WebAssembly test', questions };
}

function question(id, options, mechanism) {
  return { id, text: `${id}?`, options: Array.from({ length: options }, (_, i) => `${id} ${i}`), mechanism };
}

const PURE = survey([question('pure', 5, { name: 'negative', reported_options: 2 })]);

// Runs body with object[key] replaced by an own property, then restores the
// original (which may be inherited, as crypto.getRandomValues is).
function withReplaced(object, key, value, body) {
  const original = Object.getOwnPropertyDescriptor(object, key);
  Object.defineProperty(object, key, { value, configurable: true, writable: true });
  const restore = () => {
    if (original) Object.defineProperty(object, key, original);
    else delete object[key];
  };
  let result;
  try {
    result = body();
  } catch (error) {
    restore();
    throw error;
  }
  if (result instanceof Promise) return result.finally(restore);
  restore();
  return result;
}

test('loadCore is memoised: one instance for every caller', async () => {
  const [a, b] = await Promise.all([loadCore(), loadCore()]);
  assert.equal(a, core);
  assert.equal(b, core);
  assert.ok(Object.isFrozen(core));
});

test('version() is the project version from CMakeLists.txt and package.json', () => {
  const cmake = readFileSync(new URL('CMakeLists.txt', REPO), 'utf8').match(/project\(deniable VERSION ([0-9.]+)/)[1];
  const pkg = JSON.parse(readFileSync(new URL('package.json', REPO), 'utf8')).version;
  assert.equal(core.version(), cmake);
  assert.equal(core.version(), pkg);
});

test('parseSurvey returns the canonical survey, total epsilon and per-question privacy', () => {
  const parsed = core.parseSurvey(DEMO);
  assert.deepStrictEqual(parsed.survey, { ...DEMO, questions: DEMO.questions });
  assert.equal(parsed.total_epsilon, 3.5);
  assert.deepStrictEqual(parsed.questions.map((q) => [q.id, q.epsilon, q.privacy]),
                         [['drugs', 1, { epsilon: 1 }], ['alcohol', 1, { epsilon: 1 }],
                          ['stress', 1.5, { epsilon: 1.5 }]]);
  const [grr, oue] = parsed.questions;
  assert.ok(Math.abs(grr.p - Math.E / (Math.E + 1)) < 1e-15, `grr p = ${grr.p}`);
  assert.ok(Math.abs(grr.q - 1 / (Math.E + 1)) < 1e-15, `grr q = ${grr.q}`);
  assert.equal(oue.p, 0.5);
  assert.ok(Math.abs(oue.q - 1 / (Math.E + 1)) < 1e-15, `oue q = ${oue.q}`);
});

test('parseSurvey fills defaults in the canonical form', () => {
  const minimal = survey([question('q', 3, { name: 'grr', epsilon: 2 })]);
  const { survey: canonical } = core.parseSurvey(minimal);
  assert.deepStrictEqual(canonical, {
    ...minimal, description: '', results: 'admin', access: 'open',
    questions: [{ ...minimal.questions[0], type: 'categorical' }],
  });
});

test('the pure negative survey has no epsilon: null, with a note, and no total', () => {
  const parsed = core.parseSurvey(survey([question('a', 3, { name: 'grr', epsilon: 1 }), ...PURE.questions]));
  assert.equal(parsed.total_epsilon, null);
  const pure = parsed.questions[1];
  assert.equal(pure.epsilon, null);
  assert.equal(pure.privacy.epsilon, null);
  assert.match(pure.privacy.note, /^no formal epsilon: /);
  assert.equal(pure.p, 0); // the answer is never reported
  assert.equal(pure.q, 2 / 4); // s / (k - 1)
  assert.equal(parsed.survey.questions[1].mechanism.epsilon, undefined);
});

function assertReportShape(report, definition) {
  assert.deepStrictEqual(Object.keys(report).sort(), ['responses', 'survey', 'version']);
  assert.equal(report.survey, definition.id);
  assert.equal(report.version, definition.version);
  assert.deepStrictEqual(Object.keys(report.responses).sort(), definition.questions.map((q) => q.id).sort());
  for (const { id, options, mechanism } of definition.questions) {
    const wire = report.responses[id];
    const k = options.length;
    if (mechanism.name === 'grr') {
      assert.ok(Number.isInteger(wire) && wire >= 0 && wire < k, `${id}: ${wire}`);
    } else if (mechanism.name === 'oue' || mechanism.name === 'sue') {
      assert.equal(wire.length, k, id);
      assert.ok(wire.every((bit) => bit === 0 || bit === 1), `${id}: ${wire}`);
    } else {
      assert.equal(wire.length, mechanism.reported_options ?? 1, id);
      assert.ok(wire.every((i, n) => Number.isInteger(i) && i >= 0 && i < k && (n === 0 || wire[n - 1] < i)),
                `${id}: sorted distinct option indices: ${wire}`);
    }
  }
}

test('perturb (OS randomness) returns well-formed reports for every mechanism', () => {
  for (let i = 0; i < 50; i++) assertReportShape(core.perturb(DEMO, DEMO_ANSWERS), DEMO);
  const every = survey([question('g', 7, { name: 'grr', epsilon: 0.5 }), question('o', 9, { name: 'oue', epsilon: 2 }),
                        question('s', 3, { name: 'sue', epsilon: 1 }), ...PURE.questions]);
  for (let i = 0; i < 50; i++) assertReportShape(core.perturb(every, { g: 6, o: 0, s: 1, pure: 2 }), every);
});

test('the pure negative survey never reports the true answer', () => {
  for (let i = 0; i < 300; i++) {
    const answer = i % 5;
    assert.ok(!core.perturb(PURE, { pure: answer }).responses.pure.includes(answer));
  }
});

test('perturb varies across calls; perturbSeeded does not', () => {
  const wide = survey([question('o', 32, { name: 'oue', epsilon: 1 })]);
  const reports = new Set(Array.from({ length: 20 }, () => JSON.stringify(core.perturb(wide, { o: 3 }))));
  // 20 reports of 32 noisy bits: identical ones would mean the randomness is stuck.
  assert.ok(reports.size >= 15, `only ${reports.size} distinct reports out of 20`);
  const seeded = Array.from({ length: 5 }, () => JSON.stringify(core.perturbSeeded(wide, { o: 3 }, '7')));
  assert.equal(new Set(seeded).size, 1);
  assert.notDeepStrictEqual(core.perturbSeeded(wide, { o: 3 }, '7'), core.perturbSeeded(wide, { o: 3 }, '8'));
});

test('perturb draws from crypto.getRandomValues and never from Math.random', () => {
  let calls = 0;
  const original = globalThis.crypto.getRandomValues.bind(globalThis.crypto);
  const counting = (array) => { calls += 1; return original(array); };
  const throwing = () => { throw new Error('Math.random must not be used'); };
  withReplaced(Math, 'random', throwing, () => withReplaced(globalThis.crypto, 'getRandomValues', counting, () => {
    for (let i = 0; i < 10; i++) assertReportShape(core.perturb(DEMO, DEMO_ANSWERS), DEMO);
  }));
  // One 256-byte refill per report covers the demo survey's draws.
  assert.ok(calls >= 10, `crypto.getRandomValues was called ${calls} times for 10 reports`);
});

test('the module factory itself does not touch Math.random either', async () => {
  const module = await withReplaced(Math, 'random', () => { throw new Error('Math.random used'); },
                                    () => rawCoreModule());
  const envelope = withReplaced(Math, 'random', () => { throw new Error('Math.random used'); },
                                () => JSON.parse(module.perturbJson(JSON.stringify(DEMO), JSON.stringify(DEMO_ANSWERS))));
  assert.equal(envelope.ok, true);
  assertReportShape(envelope.value, DEMO);
});

test('invalid definitions throw Errors with core\'s message', () => {
  const cases = [
    [survey([question('q', 3, { name: 'grr', epsilon: -1 })]),
     'questions[0].mechanism.epsilon: epsilon must be finite and in [0.01, 30], but is -1'],
    [{ ...DEMO, format: undefined }, 'format: required field is missing'],
    [{ ...DEMO, colour: 'red' },
     'colour: unknown field (expected one of format, id, version, title, description, language, results, access, questions, analyses)'],
    [{ ...DEMO, questions: [] }, 'questions: must be an array of 1 to 200 questions'],
    ['a string', 'the document must be a JSON object, but is string'],
    [null, 'the document must be a JSON object, but is null'],
  ];
  for (const [definition, message] of cases) {
    assert.throws(() => core.parseSurvey(definition), (error) => error instanceof Error && error.message === message,
                  message);
    assert.throws(() => core.perturb(definition, DEMO_ANSWERS), { message });
  }
});

test('invalid answers throw Errors with core\'s message', () => {
  const cases = [
    [{ ...DEMO_ANSWERS, drugs: 2 }, 'answers.drugs: answer must be between 0 and 1, but is 2'],
    [{ ...DEMO_ANSWERS, alcohol: 4294967297 }, 'answers.alcohol: answer must be between 0 and 4, but is 4294967297'],
    [{ drugs: 0, alcohol: 1 }, 'answers.stress: question is not answered'],
    [{ ...DEMO_ANSWERS, stress: 0.5 }, 'answers.stress: must be an option index, but is 0.5'],
    [{ ...DEMO_ANSWERS, stress: '2' }, 'answers.stress: must be an option index, but is "2"'],
    [{ ...DEMO_ANSWERS, stress: NaN }, 'answers.stress: must be an option index, but is null'],
    [{ ...DEMO_ANSWERS, sleep: 1 }, 'answers.sleep: no question with this id in survey "demo"'],
    [[0, 1, 2], 'answers must be a JSON object, but is array'],
  ];
  for (const [answers, message] of cases) {
    assert.throws(() => core.perturb(DEMO, answers), { message });
    assert.throws(() => core.perturbSeeded(DEMO, answers, '1'), { message });
  }
});

test('hostile nesting is rejected before core sees it', async () => {
  let deep = 0;
  for (let i = 0; i < 1000; i++) deep = [deep]; // JSON.stringify itself gives up near 5000
  assert.throws(() => core.perturb(DEMO, { ...DEMO_ANSWERS, drugs: [[[[[[[[[[[[[[[[0]]]]]]]]]]]]]]]] }),
                { message: 'answers: JSON nesting depth exceeds the limit of 16' });
  assert.throws(() => core.perturb(DEMO, { ...DEMO_ANSWERS, drugs: deep }),
                { message: 'answers: JSON nesting depth exceeds the limit of 16' });
  assert.throws(() => core.parseSurvey({ ...DEMO, description: deep }),
                { message: 'the survey definition: JSON nesting depth exceeds the limit of 16' });
  // Far deeper text straight into the module (the wrapper cannot even build it).
  const module = await rawCoreModule();
  const text = '['.repeat(200000) + ']'.repeat(200000);
  assert.deepStrictEqual(JSON.parse(module.perturbJson(JSON.stringify(DEMO), text)),
                         { ok: false, error: 'answers: JSON nesting depth exceeds the limit of 16' });
  assert.deepStrictEqual(JSON.parse(module.parseSurveyJson(text)),
                         { ok: false, error: 'the survey definition: JSON nesting depth exceeds the limit of 16' });
  assert.deepStrictEqual(JSON.parse(module.parseSurveyJson('{"format":')),
                         { ok: false, error: 'the survey definition: not valid JSON (syntax error at byte 11)' });
  // Both instances are still healthy afterwards.
  assertReportShape(core.perturb(DEMO, DEMO_ANSWERS), DEMO);
  assert.equal(JSON.parse(module.perturbJson(JSON.stringify(DEMO), JSON.stringify(DEMO_ANSWERS))).ok, true);
});

test('seeds are strict decimal strings up to 2^64 - 1', () => {
  assert.doesNotThrow(() => core.perturbSeeded(DEMO, DEMO_ANSWERS, '18446744073709551615'));
  assert.doesNotThrow(() => core.perturbSeeded(DEMO, DEMO_ANSWERS, '0'));
  for (const seed of ['', '-1', '+1', '01', ' 1', '1 ', '1e3', '0x10', '18446744073709551616', '99999999999999999999']) {
    assert.throws(() => core.perturbSeeded(DEMO, DEMO_ANSWERS, seed), {
      message: 'seed must be a decimal integer between 0 and 18446744073709551615 without sign, spaces or ' +
               `leading zeros, but is "${seed}"`,
    });
  }
  assert.throws(() => core.perturbSeeded(DEMO, DEMO_ANSWERS, 42), TypeError);
  assert.throws(() => core.perturbSeeded(DEMO, DEMO_ANSWERS, 42n), TypeError);
});

test('JavaScript values JSON cannot hold are TypeErrors at the wrapper', () => {
  assert.throws(() => core.parseSurvey(undefined), { name: 'TypeError', message: 'definition must be a JSON value, but is undefined' });
  assert.throws(() => core.perturb(DEMO, undefined), { name: 'TypeError', message: 'answers must be a JSON value, but is undefined' });
  assert.throws(() => core.advise('5', 1, 100), { name: 'TypeError', message: 'options must be a number, but is string' });
  assert.throws(() => core.advise(5, 1, 100n), { name: 'TypeError', message: 'respondents must be a number, but is bigint' });
});

test('advise recommends GRR exactly when k < 3e^eps + 2, otherwise OUE', () => {
  for (const epsilon of [0.1, 0.5, 1, 1.5, 2, 3, 5]) {
    for (let k = 2; k <= 200; k++) {
      const expected = k < 3 * Math.exp(epsilon) + 2 ? 'grr' : 'oue';
      assert.equal(core.advise(k, epsilon, 1000).recommended, expected, `k = ${k}, epsilon = ${epsilon}`);
    }
  }
});

test('advise returns every mechanism with consistent numbers', () => {
  const advice = core.advise(6, 1, 2000);
  assert.equal(advice.options, 6);
  assert.equal(advice.epsilon, 1);
  assert.equal(advice.respondents, 2000);
  assert.deepStrictEqual(advice.mechanisms.map((m) => [m.mechanism, m.epsilon]),
                         [['grr', 1], ['oue', 1], ['sue', 1], ['negative', 1], ['negative', null]]);
  for (const m of advice.mechanisms) {
    assert.ok(m.std_error > 0 && Math.abs(m.ci_half_width - Z95 * m.std_error) < 1e-15, m.mechanism);
    assert.ok(Number.isInteger(m.n_for_5_points) && m.n_for_5_points > 0, m.mechanism);
  }
  assert.match(advice.reason, /GRR beats OUE when k < 3e\^eps \+ 2 = 10\.15/);
  // With 2 options there is no pure negative survey (it would reveal the answer).
  assert.deepStrictEqual(core.advise(2, 1, 10).mechanisms.map((m) => m.mechanism), ['grr', 'oue', 'sue', 'negative']);
});

test('advise rejects bad arguments with core\'s message', () => {
  const cases = [
    [[1, 1, 100], 'options must be between 2 and 4096, but is 1'],
    [[4097, 1, 100], 'options must be between 2 and 4096, but is 4097'],
    [[5.5, 1, 100], 'options must be an integer, but is 5.5'],
    [[5, 0, 100], 'epsilon must be finite and in [0.01, 30], but is 0'],
    [[5, 31, 100], 'epsilon must be finite and in [0.01, 30], but is 31'],
    [[5, 1, 0], 'respondents must be between 1 and 2147483647, but is 0'],
    [[5, 1, 10.5], 'respondents must be an integer, but is 10.5'],
  ];
  for (const [args, message] of cases) assert.throws(() => core.advise(...args), { message });
  assert.throws(() => core.advise(NaN, 1, 100), /^Error: options must be an integer/);
  assert.throws(() => core.advise(5, Infinity, 100), /^Error: epsilon must be finite/);
});

test('privacyOfChoices: a block\'s epsilon per attribute from the answered set and sensitivities, without answers', () => {
  const definition = JSON.parse(readFileSync(new URL('examples/block-survey.json', REPO), 'utf8'));
  const privacy = core.privacyOfChoices(definition, 'profile',
    { answered: ['age', 'education', 'diagnosis'], sensitivity: { diagnosis: 'more_private', age: 'less_private' } });
  assert.equal(privacy.answered, 3);
  assert.equal(privacy.epsilon_total, 4.5);
  const [age, income, education, diagnosis] = privacy.attributes;
  // Weights 2, 1, 0.5 over 4.5: shares 2.571..., 1.285..., 0.642...
  assert.ok(Math.abs(age.epsilon - 4.5 * 2 / 3.5) < 1e-12);
  assert.equal(income.epsilon, null);
  assert.ok(Math.abs(education.epsilon - 4.5 / 3.5) < 1e-12);
  assert.ok(Math.abs(diagnosis.epsilon - 4.5 * 0.5 / 3.5) < 1e-12);
  assert.ok(Math.abs(diagnosis.q - 1 / (Math.exp(diagnosis.epsilon) + 1)) < 1e-15);
  assert.throws(() => core.privacyOfChoices(definition, 'profile', { answered: ['job'] }),
    /answered: no attribute "job" in this block/);
  assert.throws(() => core.privacyOfChoices(DEMO, 'drugs', { answered: [] }),
    /questions of this kind have no privacy choices/);
});

test('questions answered in confidence: the WebAssembly core sends the answer as it is, and refuses one out of range', () => {
  const definition = survey([
    { id: 'drug', text: 'drug?', type: 'categorical', options: ['None', 'A', 'B'], privacy: 'central', budget: 1 },
    { id: 'age', text: 'age?', type: 'histogram', range: [0, 100], histograms: [{ name: 'decades', bins: 10 }],
      privacy: 'central', budget: 2 },
  ]);
  const parsed = core.parseSurvey(definition);
  assert.equal(parsed.questions[0].privacy.trust, 'central');
  assert.equal(parsed.questions[0].budget, 1);
  assert.equal(parsed.total_epsilon, 3);
  assert.deepEqual(core.perturb(definition, { drug: 2, age: 42.5 }).responses, { drug: 2, age: 42.5 });
  assert.throws(() => core.perturb(definition, { drug: 2, age: 101 }), /answers\.age: must be between 0 and 100, but is 101/);
});

test('designAdvice: a question answered in confidence gets the release advisor, per reader of its releases', () => {
  const definition = survey([{ id: 'age', text: 'Age?', type: 'histogram', range: [0, 100],
    histograms: [{ name: 'decades', bins: 10 }, { name: 'halves', bins: 2 }], privacy: 'central', budget: 1 }]);
  const advice = core.designAdvice(definition, 'age', 1000);
  assert.equal(advice.kind, 'central_release');
  assert.equal(advice.n, 1000);
  assert.deepEqual(advice.consumers.map((consumer) => consumer.name), ['bins', 'decades', 'halves']);
  for (const consumer of advice.consumers) {
    assert.ok(advice.methods.includes(consumer.recommended));
    // The recommendation has the smallest worst ratio to the best over the shapes.
    const ratios = Object.values(consumer.worst_ratio);
    assert.equal(consumer.worst_ratio[consumer.recommended], Math.min(...ratios));
  }
  // The same as the native core's (a fixed seed): the page and `simulate` give the same advice.
  assert.deepEqual(core.designAdvice(definition, 'age', 1000), advice);
});
