// The only JavaScript entry to the WebAssembly build of core
// (web/src/generated/deniable_core.mjs, built by wasm/build.sh). Works in
// browsers and in Node 20.
//
//   import { loadCore } from './core.js';
//   const core = await loadCore();            // lazy: fetched on first call, then memoised
//   core.parseSurvey(definition)              // {survey, total_epsilon, questions: [{id, type, required, epsilon,
//                                             //   privacy, ...the kind's page summary (p, q / values_per_report)}]}
//   core.perturb(definition, answers)         // report object; noise from crypto.getRandomValues
//   core.perturbSeeded(definition, answers, seed)  // deterministic, tests only (NOT private)
//   core.advise(k, epsilon, n)                // advisor: {options, epsilon, respondents, mechanisms, recommended, reason}
//   core.designAdvice(definition, id, n)      // a question's design advice for n respondents, or null
//   core.groupPower(definition, id, p1, p2, power, alpha)  // n per group to compare two groups' shares
//   core.privacyOfChoices(definition, id, choices)  // a block's epsilon per attribute from {answered, sensitivity}
//   core.kindTypes()                          // the registered kinds' type names
//   core.tokenBlind()                         // a fresh blind token (RFC 9497 VOPRF, ristretto255-SHA512):
//                                             //   {input, blind, blinded_element} (hex; crypto.getRandomValues)
//   core.tokenBlindWith(input, blind)         // the same from given hex (RFC 9497's test vectors, tests)
//   core.tokenFinalize({input, blind, blinded_element, evaluated_element, proof: {c, s}, public_key})
//                                             //   {output} (128 hex digits), after checking the server's proof
//                                             //   against the survey's public key; throws if it does not verify
//   core.version()                            // "0.1.0"
//
// The module speaks JSON text; every call returns {"ok":true,"value":...} or
// {"ok":false,"error":"..."}. Here the first becomes the value and the second
// an Error carrying core's message unchanged (it names the field and the problem).

// For messages; import() below repeats it as a literal, because Vite bundles
// (as a separate, lazily loaded chunk) only a literal specifier.
const MODULE_PATH = './generated/deniable_core.mjs';

let corePromise = null;
let liveModule = null; // the instance corePromise resolves to

// Resolves to the core API. The module (~400 kB, the .wasm inlined) is only
// fetched and compiled on the first call; later calls share that instance.
export function loadCore() {
  if (!corePromise) {
    corePromise = instantiate().catch((error) => {
      corePromise = null; // let a later call retry
      throw error;
    });
  }
  return corePromise;
}

async function instantiate() {
  let factory;
  try {
    ({ default: factory } = await import('./generated/deniable_core.mjs'));
  } catch (error) {
    throw new Error(`cannot load the WebAssembly core (${MODULE_PATH}; build it with bash wasm/build.sh): ` +
                    error.message, { cause: error });
  }
  liveModule = await factory();
  return bindApi(liveModule);
}

function bindApi(module) {
  let aborted = null;

  // Runs one module function. A JavaScript exception out of the module means
  // it aborted (a core bug, or no Web Crypto): its state is undefined, so this
  // instance is retired and the next loadCore() builds a fresh one.
  const invoke = (name, ...args) => {
    if (aborted) throw new Error(`the WebAssembly core aborted earlier (${aborted}); call loadCore() again`);
    try {
      return module[name](...args);
    } catch (error) {
      aborted = error.message;
      if (liveModule === module) {
        liveModule = null;
        corePromise = null;
      }
      throw new Error(`the WebAssembly core aborted: ${error.message}`, { cause: error });
    }
  };

  // Unwraps the JSON envelope: the value, or an Error with core's message.
  const call = (name, ...args) => {
    const envelope = JSON.parse(invoke(name, ...args));
    if (!envelope.ok) throw new Error(envelope.error);
    return envelope.value;
  };

  return Object.freeze({
    version: () => invoke('version'),
    parseSurvey: (definition) => call('parseSurveyJson', jsonText(definition, 'definition')),
    perturb: (definition, answers) =>
      call('perturbJson', jsonText(definition, 'definition'), jsonText(answers, 'answers')),
    perturbSeeded: (definition, answers, seed) =>
      call('perturbSeededJson', jsonText(definition, 'definition'), jsonText(answers, 'answers'),
           seedText(seed)),
    kindTypes: () => call('kindTypesJson'),
    privacyOfChoices: (definition, questionId, choices) =>
      call('privacyOfChoicesJson', jsonText(definition, 'definition'), String(questionId),
           jsonText(choices, 'choices')),
    designAdvice: (definition, questionId, respondents) =>
      call('designAdviceJson', jsonText(definition, 'definition'), String(questionId),
           number(respondents, 'respondents')),
    groupPower: (definition, questionId, p1, p2, power = 0.8, alpha = 0.05) =>
      call('groupPowerJson', jsonText(definition, 'definition'), String(questionId), number(p1, 'p1'),
           number(p2, 'p2'), number(power, 'power'), number(alpha, 'alpha')),
    advise: (options, epsilon, respondents) =>
      call('adviseJson', number(options, 'options'), number(epsilon, 'epsilon'),
           number(respondents, 'respondents')),
    tokenBlind: () => call('tokenBlindJson'),
    tokenBlindWith: (input, blind) => call('tokenBlindWithJson', text(input, 'input'), text(blind, 'blind')),
    tokenFinalize: (token) => call('tokenFinalizeJson', jsonText(token, 'token')),
  });
}

// JSON text for the module. JSON.stringify returns undefined for values JSON
// cannot hold at the top level (undefined, functions, symbols).
function jsonText(value, name) {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`${name} must be a JSON value, but is ${typeof value}`);
  return text;
}

// Hex arguments: only the JS type is checked here; the module checks the digits and lengths.
function text(value, name) {
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string, but is ${typeof value}`);
  return value;
}

// Seeds are decimal strings: they go up to 2^64 - 1, beyond exact JS numbers.
// The module checks the digits.
function seedText(seed) {
  if (typeof seed !== 'string') throw new TypeError(`seed must be a decimal string, but is ${typeof seed}`);
  return seed;
}

// The module checks ranges and integrality; only the JS type is checked here,
// so that "5" is an error rather than silently converted.
function number(value, name) {
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number, but is ${typeof value}`);
  return value;
}
