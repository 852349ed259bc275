// The respondent's module (web/src/generated/deniable_client.{mjs,wasm}, via
// web/src/core-client.js): it exports exactly the client functions and no
// estimation entry, its API has core.js's names for them and gives the same
// answers, and it works without the full module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { loadClientCore } from '../../web/src/core-client.js';
import { loadCore } from '../../web/src/core.js';

const REPO = new URL('../../', import.meta.url);
const DEMO = JSON.parse(readFileSync(new URL('examples/demo-survey.json', REPO), 'utf8'));
const DEMO_ANSWERS = { drugs: 0, alcohol: 3, stress: 5 };
const CLIENT_WASM = new URL('web/src/generated/deniable_client.wasm', REPO);
const FULL_WASM = new URL('web/src/generated/deniable_core.wasm', REPO);

const CLIENT_FUNCTIONS = ['deniable_kind_types', 'deniable_parse_survey', 'deniable_perturb', 'deniable_perturb_seeded',
  'deniable_privacy_of_choices', 'deniable_token_blind', 'deniable_token_blind_with', 'deniable_token_finalize',
  'deniable_version'];
const API = ['kindTypes', 'parseSurvey', 'perturb', 'perturbSeeded', 'privacyOfChoices', 'tokenBlind', 'tokenBlindWith',
  'tokenFinalize', 'version'];

async function rawClientModule() {
  const { default: createDeniableClient } = await import('../../web/src/generated/deniable_client.mjs');
  return createDeniableClient({ wasmBinary: readFileSync(CLIENT_WASM) });
}

test('the client module exports exactly the client functions, malloc and free', async () => {
  const module = await rawClientModule();
  const exported = Object.keys(module).filter((key) => /^_[a-z]/.test(key) && typeof module[key] === 'function');
  assert.deepStrictEqual(exported.sort(), [...CLIENT_FUNCTIONS.map((name) => `_${name}`), '_free', '_malloc'].sort());
  // Nothing else leaves the .wasm (whose export names -Oz minifies): those,
  // the constructors, the memory and the function table.
  const wasmExports = WebAssembly.Module.exports(new WebAssembly.Module(readFileSync(CLIENT_WASM)));
  assert.equal(wasmExports.length, CLIENT_FUNCTIONS.length + 2 + 3);
});

test('the client API has exactly the client names, each also in core.js', async () => {
  const client = await loadClientCore();
  const full = await loadCore();
  assert.deepStrictEqual(Object.keys(client).sort(), API);
  assert.ok(Object.isFrozen(client));
  for (const name of API) assert.equal(typeof full[name], 'function', name);
  assert.equal(client.advise, undefined);
  assert.equal(client.designAdvice, undefined);
  assert.equal(client.groupPower, undefined);
});

test('the client module answers as the full one does', async () => {
  const client = await loadClientCore();
  const full = await loadCore();
  assert.equal(client.version(), full.version());
  assert.deepStrictEqual(client.parseSurvey(DEMO), full.parseSurvey(DEMO));
  assert.deepStrictEqual(client.kindTypes(), full.kindTypes());
  for (const seed of ['0', '1', '42', '18446744073709551615']) {
    assert.deepStrictEqual(client.perturbSeeded(DEMO, DEMO_ANSWERS, seed), full.perturbSeeded(DEMO, DEMO_ANSWERS, seed));
  }
  const bad = { ...DEMO_ANSWERS, drugs: 2 };
  assert.throws(() => client.perturb(DEMO, bad), { message: 'answers.drugs: answer must be between 0 and 1, but is 2' });
  assert.throws(() => client.parseSurvey({ ...DEMO, questions: [] }),
                { message: 'questions: must be an array of 1 to 200 questions' });
  assert.throws(() => client.perturbSeeded(DEMO, DEMO_ANSWERS, 42), TypeError);
  // Strings with non-ASCII text survive the trip through the module's memory.
  const accented = { ...DEMO, title: 'Enquête — ☃ 𝄞' };
  assert.equal(client.parseSurvey(accented).survey.title, 'Enquête — ☃ 𝄞');
  assert.throws(() => client.privacyOfChoices(DEMO, 'nope', {}), { message: 'the survey has no question "nope"' });
});

test('many calls do not leak the module memory', async () => {
  const client = await loadClientCore();
  client.perturb(DEMO, DEMO_ANSWERS);
  const module = await rawClientModule();
  const encoder = new TextEncoder();
  const call = (text) => {
    const bytes = encoder.encode(text);
    const pointer = module._malloc(bytes.length + 1);
    module.HEAPU8.set(bytes, pointer);
    module.HEAPU8[pointer + bytes.length] = 0;
    const result = module._deniable_parse_survey(pointer);
    module._free(result);
    module._free(pointer);
  };
  call(JSON.stringify(DEMO));
  const before = module.HEAPU8.length;
  for (let i = 0; i < 2000; i++) call(JSON.stringify(DEMO));
  assert.equal(module.HEAPU8.length, before);
});

// Messages that only estimation code holds (the bootstrap's and the numeric
// results' option checks, the cancelled estimation): the linker kept them in
// the full module and must have dropped them from the client's.
const ESTIMATION_TEXTS = ['bootstrap replicates', 'estimator kde_sqp is available on the server only',
  'curvature_penalty applies only to estimator pml', 'estimation cancelled'];

test('the client .wasm carries no estimation code, and no Embind', () => {
  const client = readFileSync(CLIENT_WASM);
  const full = readFileSync(FULL_WASM);
  for (const text of ESTIMATION_TEXTS) {
    assert.ok(full.includes(text), `the full module holds "${text}" (else this check proves nothing)`);
    assert.ok(!client.includes(text), `the client module holds "${text}"`);
  }
  assert.ok(!readFileSync(new URL('web/src/generated/deniable_client.mjs', REPO), 'utf8').includes('embind'));
  assert.ok(client.length < full.length / 2, `client ${client.length} bytes, full ${full.length}`);
});
