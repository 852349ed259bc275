// Pre-issues the invitation headers for bench/ingest/run.sh's invitation run:
// makes COUNT codes for the survey through the admin API, then, when the
// server has blind tokens (GET /invitation-key answers), exchanges each code
// for a token as the survey page does (the WebAssembly core: tokenBlind,
// POST /tokens, tokenFinalize), 16 at a time. Writes one header line per
// report to OUT: "X-Invitation-Token: <input>.<output>", or, for a server
// before tokens, "X-Invitation-Code: <code>".
//
//   node bench/ingest/invitation_headers.mjs URL ADMIN_TOKEN SURVEY COUNT OUT
import fs from 'node:fs';

import { loadCore } from '../../web/src/core.js';

const [url, adminToken, survey, countText, out] = process.argv.slice(2);
const count = Number(countText);
const admin = { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' };

async function post(path, body, headers = { 'Content-Type': 'application/json' }) {
  const response = await fetch(url + path, { method: 'POST', headers, body: JSON.stringify(body) });
  const json = await response.json();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

const codes = [];
while (codes.length < count) {
  const made = await post(`/api/surveys/${survey}/invitations`, { count: Math.min(10000, count - codes.length) }, admin);
  codes.push(...made.codes);
}
const key = await fetch(`${url}/api/surveys/${survey}/invitation-key`);
let lines;
if (key.status !== 200) {
  lines = codes.map((code) => `X-Invitation-Code: ${code}`);
} else {
  const publicKey = (await key.json()).public_key;
  const core = await loadCore();
  lines = new Array(codes.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < codes.length; i = next++) {
      const blinded = core.tokenBlind();
      const evaluation = await post(`/api/surveys/${survey}/tokens`, { code: codes[i], blinded_element: blinded.blinded_element });
      const { output } = core.tokenFinalize({ ...blinded, ...evaluation, public_key: publicKey });
      lines[i] = `X-Invitation-Token: ${blinded.input}.${output}`;
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}
fs.writeFileSync(out, lines.join('\n') + '\n');
