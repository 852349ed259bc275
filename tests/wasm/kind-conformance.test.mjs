// The per-kind conformance vectors (testdata/vectors/kinds/<type>.json,
// written from native core by tests/tools/gen_kind_vectors.cc and checked
// natively by tests/cpp/core/survey/kind_conformance_test.cpp) through both
// WebAssembly modules (client and full): for the same seed, the same report.
// Every kind the modules have registered must have vectors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

import { loadCore } from '../../web/src/core.js';
import { loadClientCore } from '../../web/src/core-client.js';

const VECTOR_DIR = new URL('../../testdata/vectors/kinds/', import.meta.url);
const FIXTURE_DIR = new URL('../../testdata/kinds/', import.meta.url);
const MODULES = { client: await loadClientCore(), full: await loadCore() };
const kinds = MODULES.full.kindTypes();

test('the client module registers the same kinds, in the same order, as the full one', () => {
  assert.deepStrictEqual(MODULES.client.kindTypes(), kinds);
});

test('the module registers exactly the kinds that have conformance fixtures, each with vectors', () => {
  const fixtures = readdirSync(FIXTURE_DIR).filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -5));
  assert.deepStrictEqual([...kinds].sort(), fixtures.sort());
  for (const type of kinds) {
    assert.ok(existsSync(new URL(`${type}.json`, VECTOR_DIR)), `kind ${type} has no vectors in testdata/vectors/kinds`);
  }
});

for (const [module, core] of Object.entries(MODULES)) for (const type of kinds) {
  test(`${module} module, kind ${type}: seeded reports equal native core's, skipped questions are left out`, () => {
    const vector = JSON.parse(readFileSync(new URL(`${type}.json`, VECTOR_DIR), 'utf8'));
    const summary = core.parseSurvey(vector.survey);
    // Questions of other kinds may appear as context (a model's variables).
    assert.ok(summary.questions.some((question) => question.type === type));
    assert.ok(summary.questions.some((question) => question.type === type && question.required === false),
      'an optional question');
    for (const item of vector.cases) {
      const report = core.perturbSeeded(vector.survey, item.answers, item.seed);
      assert.deepStrictEqual(report, item.report, `answers ${JSON.stringify(item.answers)}, seed ${item.seed}`);
    }
  });
}
