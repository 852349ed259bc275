// The respondent's page's only entry to core: the client WebAssembly module
// (web/src/generated/deniable_client.{mjs,wasm}, built by wasm/build.sh), which
// carries only the client half of core: parsing a survey, perturbing answers,
// the page's summaries and privacy texts, blind tokens. No estimation code.
// Works in browsers and in Node 20.
//
//   import { loadClientCore } from './core-client.js';
//   const core = await loadClientCore();       // lazy: fetched on first call, then memoised
//   core.parseSurvey(definition)              // {survey, total_epsilon, questions: [{id, type, required, epsilon,
//                                             //   privacy, ...the kind's page summary (p, q / values_per_report)}]}
//   core.perturb(definition, answers)         // report object; noise from crypto.getRandomValues
//   core.perturbSeeded(definition, answers, seed)  // deterministic, tests only (NOT private)
//   core.privacyOfChoices(definition, id, choices)  // a block's epsilon per attribute from {answered, sensitivity}
//   core.kindTypes()                          // the registered kinds' type names
//   core.tokenBlind()                         // a fresh blind token (RFC 9497 VOPRF, ristretto255-SHA512):
//                                             //   {input, blind, blinded_element} (hex; crypto.getRandomValues)
//   core.tokenBlindWith(input, blind)         // the same from given hex (RFC 9497's test vectors, tests)
//   core.tokenFinalize({input, blind, blinded_element, evaluated_element, proof: {c, s}, public_key})
//                                             //   {output} (128 hex digits), after checking the server's proof
//   core.version()                            // "0.1.0"
//
// The same names and semantics as web/src/core.js (the full module, for the
// builder). The module's C exports take NUL-terminated JSON text and return a
// malloc'd {"ok":true,"value":...} or {"ok":false,"error":"..."}, freed here;
// the first becomes the value, the second an Error carrying core's message.
import { abortGuard, jsonText, memoisedLoader, seedText, text, unwrap, wasmOptions } from './wasm-loader.js';

const MODULE_PATH = './generated/deniable_client.mjs';

async function create() {
  let factory;
  try {
    // A literal specifier: Vite bundles it as a separate, lazily loaded chunk.
    ({ default: factory } = await import('./generated/deniable_client.mjs'));
  } catch (error) {
    throw new Error(`cannot load the WebAssembly client core (${MODULE_PATH}; build it with bash wasm/build.sh): ` +
                    error.message, { cause: error });
  }
  // A literal URL: Vite emits the .wasm as a content-hashed asset.
  return factory(await wasmOptions(new URL('./generated/deniable_client.wasm', import.meta.url)));
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// `value` as NUL-terminated UTF-8 in the module's memory (malloc'd).
function writeString(module, value) {
  const bytes = encoder.encode(value);
  const pointer = module._malloc(bytes.length + 1);
  if (!pointer) throw new Error('out of memory');
  module.HEAPU8.set(bytes, pointer);
  module.HEAPU8[pointer + bytes.length] = 0;
  return pointer;
}

// The NUL-terminated UTF-8 at `pointer`. HEAPU8 is read afresh: memory may have grown.
function readString(module, pointer) {
  const heap = module.HEAPU8;
  let end = pointer;
  while (heap[end] !== 0) end += 1;
  return decoder.decode(heap.subarray(pointer, end));
}

// One C export over string arguments, returning its text. The strings are
// freed unless the module aborted (then it is retired and never used again).
function callText(module, name, args) {
  const pointers = [];
  let completed = false;
  try {
    for (const arg of args) pointers.push(writeString(module, arg));
    const result = module[`_${name}`](...pointers);
    if (!result) throw new Error('out of memory');
    const value = readString(module, result);
    module._free(result);
    completed = true;
    return value;
  } finally {
    if (completed) for (const pointer of pointers) module._free(pointer);
  }
}

function bindApi(module, retire) {
  const guard = abortGuard(retire, 'loadClientCore');
  const raw = (name, ...args) => guard(() => callText(module, name, args));
  const call = (name, ...args) => unwrap(raw(name, ...args));

  return Object.freeze({
    version: () => raw('deniable_version'),
    parseSurvey: (definition) => call('deniable_parse_survey', jsonText(definition, 'definition')),
    perturb: (definition, answers) =>
      call('deniable_perturb', jsonText(definition, 'definition'), jsonText(answers, 'answers')),
    perturbSeeded: (definition, answers, seed) =>
      call('deniable_perturb_seeded', jsonText(definition, 'definition'), jsonText(answers, 'answers'),
           seedText(seed)),
    kindTypes: () => call('deniable_kind_types'),
    privacyOfChoices: (definition, questionId, choices) =>
      call('deniable_privacy_of_choices', jsonText(definition, 'definition'), String(questionId),
           jsonText(choices, 'choices')),
    tokenBlind: () => call('deniable_token_blind'),
    tokenBlindWith: (input, blind) =>
      call('deniable_token_blind_with', text(input, 'input'), text(blind, 'blind')),
    tokenFinalize: (token) => call('deniable_token_finalize', jsonText(token, 'token')),
  });
}

// Resolves to the client API. The module is only fetched and compiled on the
// first call; later calls share that instance.
export const loadClientCore = memoisedLoader(create, bindApi);
