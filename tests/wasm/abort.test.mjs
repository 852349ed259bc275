// Failing closed: without Web Crypto, perturb must fail (never fall back to
// weaker randomness), and the aborted module instance must be retired so that
// loadCore() builds a fresh one. Its own file: node --test runs each file in
// its own process, so the retired instance cannot leak into other tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { loadCore } from '../../web/src/core.js';

const DEMO = JSON.parse(readFileSync(new URL('../../examples/demo-survey.json', import.meta.url), 'utf8'));
const ANSWERS = { drugs: 1, alcohol: 0, stress: 2 };

async function withoutCrypto(replacement, body) {
  const original = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
  Object.defineProperty(globalThis, 'crypto', { value: replacement, configurable: true, writable: true });
  try {
    return await body();
  } finally {
    Object.defineProperty(globalThis, 'crypto', original);
  }
}

async function assertFailsClosed(replacement) {
  const core = await loadCore();
  await withoutCrypto(replacement, () => {
    assert.throws(() => core.perturb(DEMO, ANSWERS), /^Error: the WebAssembly core aborted: /);
  });
  // The aborted instance refuses further work, even with crypto back...
  assert.throws(() => core.perturbSeeded(DEMO, ANSWERS, '1'), /aborted earlier .*call loadCore\(\) again/);
  // ...and loadCore() now gives a fresh, working instance.
  const fresh = await loadCore();
  assert.notEqual(fresh, core);
  assert.equal(typeof fresh.perturb(DEMO, ANSWERS).responses.drugs, 'number');
  assert.equal(await loadCore(), fresh);
}

test('no crypto at all: perturb aborts instead of using another source', async () => {
  await assertFailsClosed(undefined);
});

test('crypto.getRandomValues throwing: perturb fails, the instance is retired', async () => {
  await assertFailsClosed({ getRandomValues() { throw new Error('entropy unavailable'); } });
});

test('seeded perturbation needs no crypto (tests and vectors only)', async () => {
  const core = await loadCore();
  const expected = core.perturbSeeded(DEMO, ANSWERS, '5');
  await withoutCrypto(undefined, () => {
    assert.deepStrictEqual(core.perturbSeeded(DEMO, ANSWERS, '5'), expected);
  });
});
