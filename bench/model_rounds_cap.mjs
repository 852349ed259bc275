// Issue 27 item 1: what one anonymous client at batch 1 can make of a model's
// rounds. Posts REPORTS gradient reports one after another (each for the
// current round, as a client that follows the state would) to a public survey
// whose model has batch 1 and the default max_rounds, then prints how many were
// stored, how many were refused and with which code, the rounds completed, and
// the size and time of one GET /results. Before max_rounds there was no bound:
// every report made a round (100,000 rounds in about 11 minutes).
//
// Run from the repository root after building build/deniable:
//   node bench/model_rounds_cap.mjs              (REPORTS=1200; DENIABLE_BIN=build/deniable)
import { bearer, get, makeTempDir, postJson, removeDir, startServer } from '../tests/server/server_harness.mjs';

const REPORTS = Number(process.env.REPORTS ?? 1200);
const SURVEY = {
  format: 'deniable.survey/v1', id: 'flood', version: 1, title: 'Flood', results: 'public', access: 'open',
  questions: [
    { id: 'x', text: 'x?', type: 'numeric', range: [0, 10], required: false, mechanism: { name: 'duchi', epsilon: 1 } },
    { id: 'y', text: 'y?', type: 'numeric', range: [0, 10], required: false, mechanism: { name: 'duchi', epsilon: 1 } },
    { id: 'fit', text: 'y by x', type: 'linear_regression', target: 'y', features: ['x'], epsilon: 1, batch: 1 },
  ],
};

const dataDir = makeTempDir();
const server = await startServer({ dataDir });
try {
  const created = await postJson(`${server.url}/api/surveys`, SURVEY, bearer(server.token));
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  const outcomes = new Map();
  const started = performance.now();
  let round = 1;
  for (let i = 0; i < REPORTS; i += 1) {
    const response = await postJson(`${server.url}/api/surveys/flood/reports`,
      { survey: 'flood', version: 1, responses: { fit: { round, component: i % 2, value: 0.5 } } });
    const key = response.status === 201 ? '201' : `${response.status} ${response.body.error.code}`;
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    if (response.status === 201) round += 1;
  }
  const posting = (performance.now() - started) / 1000;
  const before = performance.now();
  const results = await get(`${server.url}/api/surveys/flood/results`);
  const resultsMs = performance.now() - before;
  const fit = results.body.questions[2];
  console.log(`| reports posted | outcomes | rounds completed | max_rounds | complete | GET /results bytes | ms | posting s |`);
  console.log(`|---|---|---|---|---|---|---|---|`);
  console.log(`| ${REPORTS} | ${[...outcomes].map(([k, v]) => `${k}: ${v}`).join(', ')} | ${fit.rounds_completed} | ${fit.max_rounds} | ` +
    `${fit.complete} | ${JSON.stringify(results.body).length} | ${resultsMs.toFixed(1)} | ${posting.toFixed(1)} |`);
} finally {
  await server.stop();
  removeDir(dataDir);
}
