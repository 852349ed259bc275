// The survey page's step helpers (web/src/shared/numeric-step.js, format.js), which must agree with the core's
// AnswerStep (tests/cpp/core/kinds/numeric/answer_step_test.cpp): the same answers on the grid, decimals enough to show them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decimalsForStep } from '../../web/src/shared/format.js';
import { onStepGrid } from '../../web/src/shared/numeric-step.js';
import { loadCore } from '../../web/src/core.js';

test('on the grid: decimal steps, large numbers within their own spacing, and what the core accepts', async () => {
  assert.equal(onStepGrid(0.3, 0, 0.1), true);
  assert.equal(onStepGrid(7.5, 1, 0.5), true);
  assert.equal(onStepGrid(7.2, 1, 0.5), false);
  let onGrid = 0;
  for (let k = 0; k < 1000; k++) onGrid += onStepGrid(1e8 + k * 0.001, 1e8, 0.001) ? 1 : 0;
  assert.equal(onGrid, 1000);
  assert.equal(onStepGrid(1e8 + 0.0005, 1e8, 0.001), false);
  // The core perturbs exactly the answers the page takes.
  const core = await loadCore();
  const survey = {
    format: 'deniable.survey/v1', id: 's', version: 1, title: 's',
    questions: [{ id: 'x', text: 'x', type: 'numeric', range: [1e8, 1e8 + 100], step: 0.001, mechanism: { name: 'square_wave', epsilon: 2 } }],
  };
  for (const answer of [1e8 + 0.001, 1e8 + 0.123, 1e8 + 99.999]) {
    assert.equal(onStepGrid(answer, 1e8, 0.001), true);
    assert.doesNotThrow(() => core.perturbSeeded(survey, { x: answer }, '1'));
  }
  assert.throws(() => core.perturbSeeded(survey, { x: 1e8 + 0.0005 }, '1'), /whole number of steps of 0.001/);
});

test('decimals: enough for the step and for a low end the steps start from', () => {
  assert.equal(decimalsForStep(1), 0);
  assert.equal(decimalsForStep(0.1), 1);
  assert.equal(decimalsForStep(0.25), 2);
  assert.equal(decimalsForStep(0.5), 1);
  assert.equal(decimalsForStep(0), 0);
  // [0.5, 10.5] in steps of 1: the page shows 1.5, not 2 (max of the two).
  assert.equal(Math.max(decimalsForStep(1), decimalsForStep(0.5)), 1);
});
