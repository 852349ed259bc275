// Times core.perturb (OS randomness: crypto.getRandomValues) in the
// WebAssembly module, per report, for each mechanism and k in {2, 16, 128, 1024}.
// One report = one call through web/src/core.js, as a survey page makes it:
// JSON.stringify of the definition and answers, parsing and validating the
// definition in core, perturbing, and JSON back. The parseSurvey column is
// the definition handling alone, to show how much of a report it accounts for.
//
// Run from the repository root, after bash wasm/build.sh:
//   node bench/wasm_perturb.mjs            (MIN_MS=400 per cell by default)
import { loadCore } from '../web/src/core.js';

const OPTION_COUNTS = [2, 16, 128, 1024];
const MECHANISMS = [
  { label: 'grr eps=1', mechanism: { name: 'grr', epsilon: 1 } },
  { label: 'oue eps=1', mechanism: { name: 'oue', epsilon: 1 } },
  { label: 'sue eps=1', mechanism: { name: 'sue', epsilon: 1 } },
  { label: 'negative eps=1 s=1', mechanism: { name: 'negative', epsilon: 1, reported_options: 1 } },
  { label: 'negative pure s=1', mechanism: { name: 'negative', reported_options: 1 }, minOptions: 3 },
];
const MIN_MS = Number(process.env.MIN_MS ?? 400);
const WARMUP_CALLS = 50;

function definitionFor(mechanism, k) {
  return {
    format: 'deniable.survey/v1',
    id: 'bench',
    version: 1,
    title: 'benchmark',
    questions: [{
      id: 'q',
      text: 'benchmark question',
      options: Array.from({ length: k }, (_, i) => `option ${i}`),
      mechanism,
    }],
  };
}

// Calls fn(i) until at least MIN_MS have passed; returns [calls, microseconds per call].
function timeLoop(fn) {
  for (let i = 0; i < WARMUP_CALLS; i++) fn(i);
  let calls = 0;
  let batch = 16;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < MIN_MS) {
    for (let i = 0; i < batch; i++) fn(calls + i);
    calls += batch;
    batch = Math.min(batch * 2, 4096);
    elapsed = performance.now() - start;
  }
  return [calls, (elapsed * 1000) / calls];
}

function row(cells, widths) {
  return cells.map((cell, i) => (i === 0 ? String(cell).padEnd(widths[i]) : String(cell).padStart(widths[i])))
    .join('  ');
}

async function main() {
  const core = await loadCore();
  const widths = [20, 5, 8, 12, 16];
  console.log(`deniable ${core.version()} WebAssembly perturb (crypto.getRandomValues), node ${process.version}`);
  console.log(row(['mechanism', 'k', 'reports', 'us/report', 'parseSurvey us'], widths));
  for (const { label, mechanism, minOptions = 2 } of MECHANISMS) {
    for (const k of OPTION_COUNTS.filter((count) => count >= minOptions)) {
      const definition = definitionFor(mechanism, k);
      const [reports, perReport] = timeLoop((i) => core.perturb(definition, { q: i % k }));
      const [, perParse] = timeLoop(() => core.parseSurvey(definition));
      console.log(row([label, k, reports, perReport.toFixed(1), perParse.toFixed(1)], widths));
    }
  }
}

await main();
