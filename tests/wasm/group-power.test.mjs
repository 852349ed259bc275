// The builder's "Compare two groups" through the WebAssembly module
// (core.groupPower, core/kinds/categorical/group_power.h): the n per group of
// the two-sided Wald test of two groups' unbiased shares under the question's
// mechanism, N = (z_{1-α/2} + z_power)^2 (v(p1)/a + v(p2)/(1-a)) / d^2 with
// v(f) = λ(1-λ)/(p-q)^2, λ = q + f(p-q) (GRR: p = e^ε/(e^ε+k-1), q = 1/(e^ε+k-1)).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { loadCore } from '../../web/src/core.js';

const core = await loadCore();
const Z975 = 1.959963984540054;
const Z80 = 0.8416212335729143;

function survey(mechanism, options = ['No', 'Yes']) {
  return {
    format: 'deniable.survey/v1', id: 'power', version: 1, title: 'Power',
    questions: [{ id: 'drug', text: 'Drug?', type: 'categorical', options, mechanism }],
  };
}

function grrUnitVariance(f, epsilon, k) {
  const p = Math.exp(epsilon) / (Math.exp(epsilon) + k - 1);
  const q = 1 / (Math.exp(epsilon) + k - 1);
  const lambda = q + f * (p - q);
  return lambda * (1 - lambda) / (p - q) ** 2;
}

test('groupPower gives the closed-form n per group for GRR at ε = ln 5 (binary forced response)', () => {
  const epsilon = Math.log(5);
  const plan = core.groupPower(survey({ name: 'grr', epsilon }), 'drug', 0.1, 0.2, 0.8, 0.05);
  const total = (Z975 + Z80) ** 2 * (grrUnitVariance(0.1, epsilon, 2) / 0.5 + grrUnitVariance(0.2, epsilon, 2) / 0.5) / 0.1 ** 2;
  assert.deepEqual(plan.n_per_group, [Math.ceil(total / 2), Math.ceil(total / 2)]);
  assert.equal(plan.n_total, 2 * Math.ceil(total / 2));
  assert.ok(plan.achieved_power >= 0.8 && plan.achieved_power < 0.81, String(plan.achieved_power));
  // Without randomisation: v(f) = f (1 - f).
  const plain = (Z975 + Z80) ** 2 * (0.1 * 0.9 / 0.5 + 0.2 * 0.8 / 0.5) / 0.1 ** 2;
  assert.deepEqual(plan.without_randomisation.n_per_group, [Math.ceil(plain / 2), Math.ceil(plain / 2)]);
  assert.equal(plan.epsilon, epsilon);
});

test('groupPower follows the mechanism: more options or a smaller ε need more respondents', () => {
  const binary = core.groupPower(survey({ name: 'grr', epsilon: 1 }), 'drug', 0.1, 0.2);
  const four = core.groupPower(survey({ name: 'grr', epsilon: 1 }, ['a', 'b', 'c', 'd']), 'drug', 0.1, 0.2);
  const tight = core.groupPower(survey({ name: 'grr', epsilon: 0.5 }), 'drug', 0.1, 0.2);
  assert.ok(four.n_total > binary.n_total);
  assert.ok(tight.n_total > binary.n_total);
  const oue = core.groupPower(survey({ name: 'oue', epsilon: 1 }, ['a', 'b', 'c', 'd']), 'drug', 0.1, 0.2, 0.9);
  assert.equal(oue.power, 0.9);
  assert.ok(oue.n_total > 0);
});

test('groupPower refuses what it cannot answer, naming the field', () => {
  assert.throws(() => core.groupPower(survey({ name: 'grr', epsilon: 1 }), 'drug', 0.2, 0.2), /p2/);
  assert.throws(() => core.groupPower(survey({ name: 'grr', epsilon: 1 }), 'drug', 1.2, 0.2), /p1/);
  assert.throws(() => core.groupPower(survey({ name: 'grr', epsilon: 1 }), 'drug', 0.1, 0.2, 0.3), /power/);
  assert.throws(() => core.groupPower(survey({ name: 'grr', epsilon: 1 }), 'nope', 0.1, 0.2), /no question "nope"/);
  const open = { ...survey({}), questions: [{ id: 'gender', text: 'Gender?', type: 'categorical', options: ['W', 'M'], privacy: 'open' }] };
  assert.throws(() => core.groupPower(open, 'gender', 0.1, 0.2), /randomised categorical/);
});
