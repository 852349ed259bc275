// The survey page's side of blind tokens, for server tests: the WebAssembly
// core (web/src/core.js: tokenBlind, tokenBlindWith, tokenFinalize) against a
// real server's GET /invitation-key and POST /tokens. Not a test file itself.
import { loadCore } from '../../web/src/core.js';
import { get, postJson } from './server_harness.mjs';

export const core = await loadCore();

export async function publicKey(url, surveyId) {
  const response = await get(`${url}/api/surveys/${surveyId}/invitation-key`);
  if (response.status !== 200) throw new Error(`invitation-key: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.public_key;
}

// POST /tokens for a blinded token: the raw response.
export function requestEvaluation(url, surveyId, code, blinded) {
  return postJson(`${url}/api/surveys/${surveyId}/tokens`, { code, blinded_element: blinded.blinded_element });
}

// The finalized token of a 200 evaluation: {input, output, header}.
export function finalize(blinded, evaluation, public_key) {
  const { output } = core.tokenFinalize({ ...blinded, evaluated_element: evaluation.evaluated_element, proof: evaluation.proof, public_key });
  return { input: blinded.input, output, header: `${blinded.input}.${output}` };
}

// Code -> token, as the page does it (a fresh blind unless one is given); throws unless issued.
export async function issueToken(url, surveyId, code, blinded = core.tokenBlind()) {
  const key = await publicKey(url, surveyId);
  const response = await requestEvaluation(url, surveyId, code, blinded);
  if (response.status !== 200) throw new Error(`tokens: ${response.status} ${JSON.stringify(response.body)}`);
  return finalize(blinded, response.body, key);
}

// A report sent with a token (its header), as the page sends it.
export function sendWithToken(url, surveyId, report, token) {
  return postJson(`${url}/api/surveys/${surveyId}/reports`, report, token ? { 'X-Invitation-Token': token.header ?? token } : {});
}
