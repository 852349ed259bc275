// Blind tokens through the WebAssembly core's client path (web/src/core.js:
// tokenBlind, tokenBlindWith, tokenFinalize): RFC 9497 appendix A.1.2
// (VOPRF, ristretto255-SHA512) byte for byte, from the same file the native
// test reads (testdata/vectors/rfc9497-voprf-ristretto255.json), so both sides
// agree with the RFC and with each other. libsodium in the module is Debian's
// 1.0.18 source compiled by wasm/build-libsodium.sh.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { loadClientCore } from '../../web/src/core-client.js';
import { loadCore } from '../../web/src/core.js';

const VECTORS = JSON.parse(readFileSync(new URL('../../testdata/vectors/rfc9497-voprf-ristretto255.json',
                                                import.meta.url), 'utf8'));
// Core's message when the server's evaluation does not verify against the key.
const PROOF_REFUSED = "proof: the evaluation was not made with the survey's published key";
const HEX64 = /^[0-9a-f]{64}$/;

const core = await loadCore();
// The respondent's module computes scalar * generator without libsodium's
// fixed-base table (wasm/client_base_point.cc): its tokens are checked against
// the RFC too.
const MODULES = { full: core, client: await loadClientCore() };

function tokenOf(vector, changes = {}) {
  return {
    input: vector.input, blind: vector.blind, blinded_element: vector.blinded_element,
    evaluated_element: vector.evaluation_element, proof: { ...vector.proof }, public_key: VECTORS.pk_sm,
    ...changes,
  };
}

// The hex of a scalar with its lowest bit flipped: still canonical (the
// vectors' scalars are far below the group order), but a different value.
function flipLowBit(hex) {
  return (parseInt(hex.slice(0, 2), 16) ^ 1).toString(16).padStart(2, '0') + hex.slice(2);
}

test('the vectors file is RFC 9497 A.1.2 (VOPRF, ristretto255-SHA512), batch size 1', () => {
  assert.equal(VECTORS.suite, 'ristretto255-SHA512');
  assert.equal(VECTORS.mode, 'voprf');
  assert.equal(VECTORS.vectors.length, 2);
});

// Until the native test reads the JSON file too: its header must hold the same numbers.
test('the native test\'s vectors (tests/cpp/core/oprf/rfc9497_vectors.h) are the same numbers', () => {
  const header = readFileSync(new URL('../cpp/core/oprf/rfc9497_vectors.h', import.meta.url), 'utf8');
  const constant = (name) => header.match(new RegExp(`${name} = "([0-9a-f]*)"`))[1];
  assert.deepStrictEqual([constant('kSeed'), constant('kKeyInfo'), constant('kSkSm'), constant('kPkSm')],
                         [VECTORS.seed, VECTORS.key_info, VECTORS.sk_sm, VECTORS.pk_sm]);
  // Each field of kVoprfVectors is one or more adjacent string literals.
  const body = header.slice(header.indexOf('kVoprfVectors'), header.indexOf('kXmdDst'));
  const fields = [...body.matchAll(/((?:"[0-9a-f]*"\s*)+)(?=[,}])/g)]
    .map((match) => [...match[1].matchAll(/"([0-9a-f]*)"/g)].map((literal) => literal[1]).join(''));
  assert.deepStrictEqual(fields, VECTORS.vectors.flatMap((v) => [v.input, v.blind, v.blinded_element,
    v.evaluation_element, v.proof.c + v.proof.s, v.proof_random_scalar, v.output]));
});

for (const [name, core] of Object.entries(MODULES)) for (const vector of VECTORS.vectors) {
  test(`${name} module, ${vector.name}: tokenBlindWith gives the RFC's BlindedElement`, () => {
    assert.deepStrictEqual(core.tokenBlindWith(vector.input, vector.blind),
                           { input: vector.input, blind: vector.blind, blinded_element: vector.blinded_element });
  });

  test(`${name} module, ${vector.name}: tokenFinalize verifies the RFC's proof under pkSm and gives its Output`, () => {
    assert.deepStrictEqual(core.tokenFinalize(tokenOf(vector)), { output: vector.output });
  });

  test(`${name} module, ${vector.name}: a tampered proof, evaluation or key is refused with core's message`, () => {
    const other = VECTORS.vectors.find((v) => v !== vector);
    const tampered = {
      'proof c': { proof: { ...vector.proof, c: flipLowBit(vector.proof.c) } },
      'proof s': { proof: { ...vector.proof, s: flipLowBit(vector.proof.s) } },
      'the other vector\'s proof': { proof: { ...other.proof } },
      'the other vector\'s evaluated element': { evaluated_element: other.evaluation_element },
      'another public key': { public_key: other.blinded_element },
    };
    for (const [what, changes] of Object.entries(tampered)) {
      assert.throws(() => core.tokenFinalize(tokenOf(vector, changes)), { message: PROOF_REFUSED }, what);
    }
  });
}

test('tokenBlind draws a fresh 32-byte input and blind from crypto.getRandomValues, with a valid element', () => {
  const originalRandom = Math.random;
  const originalGetRandomValues = crypto.getRandomValues;
  let calls = 0;
  Math.random = () => { throw new Error('Math.random must not be used'); };
  crypto.getRandomValues = (array) => { calls += 1; return originalGetRandomValues.call(crypto, array); };
  let tokens;
  try {
    tokens = Array.from({ length: 4 }, () => core.tokenBlind());
  } finally {
    Math.random = originalRandom;
    crypto.getRandomValues = originalGetRandomValues;
  }
  assert.ok(calls >= tokens.length, `crypto.getRandomValues calls: ${calls}`);
  for (const token of tokens) {
    assert.deepStrictEqual(Object.keys(token).sort(), ['blind', 'blinded_element', 'input']);
    for (const field of ['input', 'blind', 'blinded_element']) assert.match(token[field], HEX64, field);
    // The element is the blind times HashToGroup(input): recomputed from the two, it is the same.
    assert.deepStrictEqual(core.tokenBlindWith(token.input, token.blind), token);
    // And it decodes as a valid element: finalize gets as far as the proof (the vector's, so refused).
    const vector = VECTORS.vectors[0];
    assert.throws(() => core.tokenFinalize({ ...tokenOf(vector), ...token }), { message: PROOF_REFUSED });
  }
  assert.equal(new Set(tokens.map((t) => t.input)).size, tokens.length, 'inputs are fresh');
  assert.equal(new Set(tokens.map((t) => t.blind)).size, tokens.length, 'blinds are fresh');
});

test('malformed token fields are refused with a message naming the field', () => {
  const vector = VECTORS.vectors[0];
  const cases = [
    [() => core.tokenBlindWith('0', vector.blind), /^input: expected an even number of hexadecimal characters/],
    [() => core.tokenBlindWith('zz', vector.blind), /^input: character 1 is not hexadecimal/],
    [() => core.tokenBlindWith(vector.input, vector.blind.slice(2)), /^blind: expected 64 hexadecimal characters/],
    [() => core.tokenBlindWith(vector.input, 42), /^blind must be a string, but is number/],
    [() => core.tokenFinalize(tokenOf(vector, { code: 'ABCD' })), /^token\.code: unknown field/],
    [() => core.tokenFinalize({ ...tokenOf(vector), proof: undefined }), /^token\.proof: required field is missing/],
    [() => core.tokenFinalize(tokenOf(vector, { proof: { c: vector.proof.c } })), /^token\.proof\.s: required/],
    [() => core.tokenFinalize(tokenOf(vector, { blinded_element: '00'.repeat(32) })), /^token\.blinded_element: /],
    [() => core.tokenFinalize(tokenOf(vector, { public_key: 'ff'.repeat(32) })), /^token\.public_key: /],
    [() => core.tokenFinalize(tokenOf(vector, { evaluated_element: 42 })),
     /^token\.evaluated_element: must be a string/],
  ];
  for (const [call, message] of cases) assert.throws(call, { message }, String(message));
});
