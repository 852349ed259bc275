// The only JavaScript entry to the full WebAssembly build of core
// (web/src/generated/deniable_core.{mjs,wasm}, built by wasm/build.sh), for the
// creation page: everything web/src/core-client.js offers the respondent's
// page (same names, same semantics), plus the builder's advice. The survey
// page must never import this file. Works in browsers and in Node 20.
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

import {
  abortGuard, jsonText, memoisedLoader, number, seedText, text, unwrap, wasmOptions,
} from './wasm-loader.js';

// For messages; import() below repeats it as a literal, because Vite bundles
// (as a separate, lazily loaded chunk) only a literal specifier.
const MODULE_PATH = './generated/deniable_core.mjs';

async function create() {
  let factory;
  try {
    ({ default: factory } = await import('./generated/deniable_core.mjs'));
  } catch (error) {
    throw new Error(`cannot load the WebAssembly core (${MODULE_PATH}; build it with bash wasm/build.sh): ` +
                    error.message, { cause: error });
  }
  // A literal URL: Vite emits the .wasm as a content-hashed asset.
  return factory(await wasmOptions(new URL('./generated/deniable_core.wasm', import.meta.url)));
}

function bindApi(module, retire) {
  const guard = abortGuard(retire, 'loadCore');
  const invoke = (name, ...args) => guard(() => module[name](...args));
  const call = (name, ...args) => unwrap(invoke(name, ...args));

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

// Resolves to the core API. The module is only fetched and compiled on the
// first call; later calls share that instance.
export const loadCore = memoisedLoader(create, bindApi);
