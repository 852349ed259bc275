// Times core.perturb for a histogram question in the WebAssembly module (OS
// randomness: crypto.getRandomValues), per report, as a survey page makes it
// (JSON of the definition and answer in, the report out), for 13, 256 and
// 4096 fine cells and each mechanism, with the report's size. The native
// figures: build/histogram_bench (section 5).
//
// Run from the repository root, after bash wasm/build.sh:
//   node bench/wasm_histogram.mjs            (MIN_MS=400 per cell by default)
import { loadCore } from '../web/src/core.js';

const MIN_MS = Number(process.env.MIN_MS ?? 400);
const WARMUP_CALLS = 20;
const PARTITIONS = [
  { cells: 13, histograms: [3, 5, 7].map((bins) => ({ name: `${bins}-fold`, bins })) },
  { cells: 256, histograms: [{ name: 'fine', bins: 256 }] },
  { cells: 4096, histograms: [{ name: 'fine', bins: 4096 }] },
];

function definitionFor(histograms, mechanism) {
  return {
    format: 'deniable.survey/v1', id: 'bench', version: 1, title: 'benchmark',
    questions: [{ id: 'q', text: 'benchmark question', type: 'histogram', range: [0, 1000], histograms,
      mechanism: { name: mechanism, epsilon: 2 } }],
  };
}

// Calls fn(i) until at least MIN_MS have passed; returns [calls, microseconds per call].
function timeLoop(fn) {
  for (let i = 0; i < WARMUP_CALLS; i++) fn(i);
  let calls = 0;
  let batch = 8;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < MIN_MS) {
    for (let i = 0; i < batch; i++) fn(calls + i);
    calls += batch;
    batch = Math.min(batch * 2, 1024);
    elapsed = performance.now() - start;
  }
  return [calls, (elapsed * 1000) / calls];
}

async function main() {
  const core = await loadCore();
  console.log(`deniable ${core.version()} WebAssembly histogram perturb, node ${process.version}\n`);
  console.log('| fine cells | mechanism | reports timed | µs per report | report bytes (JSON) |');
  console.log('|---:|---|---:|---:|---:|');
  for (const { cells, histograms } of PARTITIONS) {
    for (const mechanism of ['sue', 'oue', 'tree']) {
      const definition = definitionFor(histograms, mechanism);
      let report = null;
      const [calls, perReport] = timeLoop((i) => { report = core.perturb(definition, { q: 123.4 + (i % 500) }); });
      const bytes = JSON.stringify(report.responses.q).length;
      console.log(`| ${cells} | ${mechanism} | ${calls} | ${perReport.toFixed(1)} | ${bytes} |`);
    }
  }
}

await main();
