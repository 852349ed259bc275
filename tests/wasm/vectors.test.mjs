// The shared test vectors (testdata/vectors/v1, generated from native core by
// tests/tools/gen_vectors.cc) through BOTH WebAssembly modules: the client one
// (web/src/core-client.js, the respondent's page) and the full one
// (web/src/core.js, the builder). Seeded reports must be deep-equal, and bad
// answers and bad definitions must fail with the same messages. Native core is
// checked against the same files by tests/cpp/vectors_test.cpp.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';

import { loadCore } from '../../web/src/core.js';
import { loadClientCore } from '../../web/src/core-client.js';

const VECTOR_DIR = new URL('../../testdata/vectors/v1/', import.meta.url);
const EXPECTED_FILES = ['answers_bad_1.json', 'definition_bad_1.json', 'duchi_1.json', 'estimate_1.json',
  'grr_1.json', 'grr_2.json', 'hybrid_1.json', 'laplace_1.json', 'levels_1.json', 'levels_2.json', 'negative_1.json', 'negative_2.json',
  'numeric_answers_bad_1.json', 'oue_1.json', 'piecewise_1.json', 'rvns_1.json', 'rvns_2.json', 'rvns_3.json',
  'rvns_4.json', 'square_wave_1.json', 'sue_1.json', 'survey_1.json'];

const MODULES = { client: await loadClientCore(), full: await loadCore() };
const files = readdirSync(VECTOR_DIR).filter((name) => name.endsWith('.json')).sort();

function readVector(name) {
  return JSON.parse(readFileSync(new URL(name, VECTOR_DIR), 'utf8'));
}

// A call's outcome in the vectors' shape: {value} or {error: message}.
function outcome(run, field) {
  try {
    return { [field]: run() };
  } catch (error) {
    return { error: error.message };
  }
}

function checkPerturbCase(core, vector, item, field) {
  const actual = outcome(() => core.perturbSeeded(vector.survey, item.answers, item.seed), 'report');
  assert.deepStrictEqual(actual, { [field]: item[field] });
}

function checkDefinitionCase(core, item) {
  const expected = { error: item.error };
  assert.deepStrictEqual(outcome(() => core.parseSurvey(item.survey), 'survey'), expected, 'parseSurvey');
  // perturb validates the definition first, with the same message.
  assert.deepStrictEqual(outcome(() => core.perturbSeeded(item.survey, {}, '1'), 'report'), expected,
                         'perturbSeeded');
}

const CHECKERS = {
  perturb: (core, vector, item) => checkPerturbCase(core, vector, item, 'report'),
  perturb_error: (core, vector, item) => checkPerturbCase(core, vector, item, 'error'),
  definition_error: (core, vector, item) => checkDefinitionCase(core, item),
};
// The estimator is server-side only: the WebAssembly API has no estimate call.
const NATIVE_ONLY_KINDS = new Set(['estimate']);

test('the vector directory holds every expected file', () => {
  assert.deepStrictEqual(files, EXPECTED_FILES);
});

for (const name of files) {
  const vector = readVector(name);
  if (NATIVE_ONLY_KINDS.has(vector.kind)) {
    test(name, { skip: `kind "${vector.kind}" is checked natively (tests/cpp/vectors_test.cpp)` }, () => {});
    continue;
  }
  test(name, async (t) => {
    const check = CHECKERS[vector.kind];
    assert.ok(check, `${name}: unknown vector kind "${vector.kind}"`);
    assert.ok(vector.cases.length > 0, `${name}: no cases`);
    for (const [module, core] of Object.entries(MODULES)) {
      for (const item of vector.cases) {
        await t.test(`${module}: ${item.name}`, () => check(core, vector, item));
      }
    }
  });
}
