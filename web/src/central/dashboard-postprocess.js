// How a release of a question answered in confidence is shown, as the reader
// chooses: its raw noisy counts, or post-processed values — consistent
// (Norm-Sub: at least 0, same total), negatives clamped to 0, rounded to
// whole numbers, in any combination. The consistent values alone come with
// every release; with clamping or rounding the server applies the chosen steps
// on read (GET …/releases?postprocess=…, in its own order: consistent, clamp,
// round), fetched once per choice: the page computes none of them.
// Post-processing costs no privacy and never changes the stored release.
import { bearer, requestJson, surveyPath } from '../shared/api.js';
import { loadAdminToken } from '../shared/admin-token.js';
import { el, setText } from '../shared/dom.js';

const STEPS = [
  { name: 'consistent', word: 'consistent', label: 'Show consistent values (at least 0, same total)' },
  { name: 'clamp', word: 'clamped', label: 'Clamp negatives to 0' },
  { name: 'round', word: 'rounded', label: 'Round to whole numbers' },
];

// What the view shows of a release: `values` (one per bin) or null for the
// raw counts; `consistent`: the values carry no interval of their own;
// `steps`: the steps applied (names); `heading`: the value column's name.
export const RAW_DISPLAY = { steps: [], values: null, consistent: false, heading: 'Noisy count' };

function heading(steps) {
  if (steps.length === 0) return RAW_DISPLAY.heading;
  const words = STEPS.filter((step) => steps.includes(step.name)).map((step) => step.word).join(', ');
  return `${words.charAt(0).toUpperCase()}${words.slice(1)} count`;
}

// `onChange()`: the choice changed, or values the page waited for arrived.
export function createPostProcessing({ surveyId, questionId, onChange }) {
  const boxes = Object.fromEntries(STEPS.map((step) => [step.name, el('input', {
    type: 'checkbox', id: `release-${step.name}-${questionId}`, testid: `release-${step.name}-${questionId}`,
  })]));
  const status = el('p', { class: 'hint', role: 'status', testid: `release-postprocess-status-${questionId}`, hidden: true });
  const error = el('p', { class: 'notice notice-error', role: 'alert', testid: `release-postprocess-error-${questionId}`, hidden: true });
  const fetched = new Map();  // steps ("clamp,round") → Map(release id → values)
  const asked = new Set();    // "steps|release id" already asked for (a failure is asked again after a new choice)
  let failed = new Set();

  for (const box of Object.values(boxes)) {
    box.addEventListener('change', () => {
      failed.forEach((key) => asked.delete(key));
      failed = new Set();
      error.hidden = true;
      onChange();
    });
  }

  const chosen = () => STEPS.filter((step) => boxes[step.name].checked).map((step) => step.name);

  async function load(query, releaseId) {
    const key = `${query}|${releaseId}`;
    if (asked.has(key)) return;
    asked.add(key);
    setText(status, 'Fetching the post-processed values from the server…');
    status.hidden = false;
    try {
      const path = surveyPath(surveyId, `/questions/${encodeURIComponent(questionId)}/releases?postprocess=${query}`);
      const ledger = await requestJson(path, { headers: bearer(loadAdminToken()) });
      if (!fetched.has(query)) fetched.set(query, new Map());
      for (const release of ledger.releases ?? []) {
        if (Array.isArray(release.postprocessed)) fetched.get(query).set(release.id, release.postprocessed);
      }
      error.hidden = true;
    } catch (failure) {
      failed.add(key);
      setText(error, `Could not fetch the post-processed values (the raw counts are shown): ${failure.message}`);
      error.hidden = false;
    } finally {
      status.hidden = true;
    }
    onChange();
  }

  return {
    elements: [
      ...STEPS.map((step) => el('div', { class: 'field field-checkbox' }, [boxes[step.name],
        el('label', { for: boxes[step.name].id, text: step.label })])),
    ],
    messages: [status, error],
    // What to show of `release` now; the raw counts while clamped or rounded values are fetched.
    display(release) {
      const steps = chosen();
      if (!release || steps.length === 0) return RAW_DISPLAY;
      if (steps.length === 1 && steps[0] === 'consistent') {
        return { steps, values: release.consistent ?? null, consistent: true, heading: heading(steps) };
      }
      const query = steps.join(',');
      const values = fetched.get(query)?.get(release.id);
      if (values) return { steps, values, consistent: steps.includes('consistent'), heading: heading(steps) };
      load(query, release.id);
      return RAW_DISPLAY;
    },
  };
}
