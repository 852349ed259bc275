// Runs in Chromium for tests/wasm/browser.test.mjs (served as is, and bundled
// by Vite). Exercises web/src/core.js under the pages' CSP and publishes the
// observations as window.deniableResult; the test asserts on them.
import { loadCore } from '../../../web/src/core.js';
import { loadClientCore } from '../../../web/src/core-client.js';

const DEFINITION = {
  format: 'deniable.survey/v1', id: 'browser', version: 1, title: 'Browser test',
  questions: [
    { id: 'yes_no', text: 'Yes or no?', options: ['Yes', 'No'], mechanism: { name: 'grr', epsilon: 1 } },
    { id: 'often', text: 'How often?', options: ['a', 'b', 'c', 'd', 'e'], mechanism: { name: 'oue', epsilon: 1 } },
    { id: 'which', text: 'Which?', options: ['a', 'b', 'c', 'd', 'e', 'f'],
      mechanism: { name: 'negative', epsilon: 1.5, reported_options: 2 } },
  ],
};
const ANSWERS = { yes_no: 0, often: 3, which: 5 };

const violations = [];
document.addEventListener('securitypolicyviolation', (event) => {
  violations.push({ directive: event.effectiveDirective, blocked: event.blockedURI });
});

// Proves the CSP is in force: evaluating a string must be refused.
function evalIsBlocked() {
  try {
    new Function('return 1'); // eslint-disable-line no-new-func
    return false;
  } catch {
    return true;
  }
}

function instrumentRandomness(counts) {
  Math.random = () => {
    counts.mathRandom += 1;
    throw new Error('Math.random must not be used');
  };
  const getRandomValues = crypto.getRandomValues.bind(crypto);
  crypto.getRandomValues = (array) => {
    counts.getRandomValues += 1;
    return getRandomValues(array);
  };
}

async function exercise() {
  const counts = { mathRandom: 0, getRandomValues: 0 };
  instrumentRandomness(counts);
  const core = await loadCore();
  const result = {
    definition: DEFINITION,
    answers: ANSWERS,
    version: core.version(),
    memoised: (await loadCore()) === core,
    totalEpsilon: core.parseSurvey(DEFINITION).total_epsilon,
    reports: Array.from({ length: 5 }, () => core.perturb(DEFINITION, ANSWERS)),
    seeded: core.perturbSeeded(DEFINITION, ANSWERS, '18446744073709551615'),
    recommended: core.advise(5, 1, 1000).recommended,
    token: core.tokenBlind(),
  };
  // The respondent's module, streamed from its own .wasm: the same report for the same seed.
  const client = await loadClientCore();
  result.client = {
    seeded: client.perturbSeeded(DEFINITION, ANSWERS, '18446744073709551615'),
    report: client.perturb(DEFINITION, ANSWERS),
    totalEpsilon: client.parseSurvey(DEFINITION).total_epsilon,
  };
  result.wasmRequests = performance.getEntriesByType('resource').map((entry) => entry.name)
    .filter((name) => name.endsWith('.wasm')).map((name) => name.replace(/^.*\//, ''));
  try {
    core.perturb(DEFINITION, { ...ANSWERS, yes_no: 2 });
  } catch (error) {
    result.error = error.message;
  }
  result.counts = counts;
  // For the test's page.evaluate (RFC 9497 vectors, which it reads from testdata/).
  window.deniableCore = core;
  return result;
}

async function main() {
  let result;
  try {
    result = await exercise();
  } catch (error) {
    result = { failure: String(error && error.stack ? error.stack : error) };
  }
  result.evalBlocked = evalIsBlocked();
  // Violation events are dispatched asynchronously.
  await new Promise((resolve) => setTimeout(resolve, 100));
  result.violations = violations;
  window.deniableResult = result;
}

main();
