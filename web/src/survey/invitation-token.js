// An invitation code exchanged for a blind token when the survey page opens
// (RFC 9497 VOPRF, ristretto255-SHA512; the core does the arithmetic, see
// web/src/core.js tokenBlind / tokenFinalize). The page draws a random token
// input and sends it blinded, with the code; the server spends the code and
// evaluates the blinded element under the survey's key, with a proof; the page
// checks the proof against the survey's published public key and unblinds.
// The report later carries the token (input.output), which the server never
// saw at issuance: it can check it, not tell whose code it came from.
//
// The pending issuance is stored BEFORE the code leaves (store.savePending):
// if the answer is lost, the same blinded element is sent again, which the
// server answers again (idempotent), so a network failure loses nothing.
// No DOM here: `request(path, options)` is the page's requestJson (throws an
// error with .status, 0 for no answer, and .code), `store` the page's
// localStorage (prepared-report-store.js), both replaced in the tests
// (tests/wasm/invitation-token.test.mjs).
import { surveyPath } from '../shared/api.js';

// The header the report carries: input and output, hex, joined by a dot.
export function tokenHeader(token) {
  return `${token.input}.${token.output}`;
}

// The key's fingerprint as the page shows it: the first 16 hex characters.
export function keyFingerprint(publicKey) {
  return typeof publicKey === 'string' ? publicKey.slice(0, 16) : null;
}

// The server refused the code (unknown, used, another element, a closed or
// deleted survey, a malformed request): sending it again would not help.
function isRefusal(error) {
  return [400, 403, 404, 409, 410].includes(error?.status);
}

// store: {load() -> {pending, token}, savePending(pending), saveToken(token), forget()}.
// obtain(code) resolves to one of
//   {outcome: 'issued', token}          a token {input, output, public_key}, stored
//   {outcome: 'refused', error}         the code is not accepted (nothing kept)
//   {outcome: 'failed', error}          no answer: retry() sends the same element again
//   {outcome: 'unverified', error, publicKey}  the proof does not verify: go no further
//   {outcome: 'noCode'}                 nothing stored and no code given
export function createTokenIssuer({ surveyId, core, store, request }) {
  // The pending issuance also lives here, for a browser that stores nothing.
  let pendingInMemory = null;

  const stored = () => {
    const { pending, token } = store.load();
    return { pending: pending ?? pendingInMemory, token };
  };

  async function exchange(pending, { again = true } = {}) {
    let key;
    let answer;
    try {
      key = await request(surveyPath(surveyId, '/invitation-key'));
      answer = await request(surveyPath(surveyId, '/tokens'), {
        method: 'POST', json: { code: pending.code, blinded_element: pending.blinded_element },
      });
    } catch (error) {
      if (!isRefusal(error)) return { outcome: 'failed', error };
      return refused(pending, error, again);
    }
    let output;
    try {
      ({ output } = core.tokenFinalize({
        input: pending.input, blind: pending.blind, blinded_element: pending.blinded_element,
        evaluated_element: answer.evaluated_element, proof: answer.proof, public_key: key.public_key,
      }));
    } catch (error) {
      return { outcome: 'unverified', error, publicKey: key.public_key ?? null };
    }
    const token = { input: pending.input, output, public_key: key.public_key };
    pendingInMemory = null;
    store.saveToken(token);
    return { outcome: 'issued', token };
  }

  // Another tab of this device may have exchanged the same code meanwhile
  // (its token, or its pending issuance, is then in the store): that one is
  // used, never dropped. Otherwise this pending issuance goes.
  async function refused(pending, error, again) {
    if (pendingInMemory?.blinded_element === pending.blinded_element) pendingInMemory = null;
    const now = store.load();
    if (now.token) return { outcome: 'issued', token: now.token };
    if (now.pending && now.pending.blinded_element !== pending.blinded_element && again) {
      return exchange(now.pending, { again: false });
    }
    if (now.pending?.blinded_element === pending.blinded_element) store.forget();
    return { outcome: 'refused', error };
  }

  return {
    // The stored token, or a pending issuance retried, or `code` exchanged.
    async obtain(code = null) {
      const { pending, token } = stored();
      if (token) return { outcome: 'issued', token };
      if (pending) {
        const first = await exchange(pending);
        // A pending issuance for another code that is refused: the code given now is tried.
        if (first.outcome !== 'refused' || !code || code === pending.code) return first;
      }
      if (!code) return { outcome: 'noCode' };
      const drawn = { code, ...core.tokenBlind() };
      pendingInMemory = drawn;
      store.savePending(drawn);
      return exchange(drawn);
    },
    // After a failure: the pending issuance, same blinded element.
    async retry() {
      const { pending, token } = stored();
      if (token) return { outcome: 'issued', token };
      return pending ? exchange(pending) : { outcome: 'noCode' };
    },
  };
}
