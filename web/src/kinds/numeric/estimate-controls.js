import { el } from '../../shared/dom.js';
import { formatNumber } from '../../shared/format.js';
import { parseDecimal } from '../../shared/number-input.js';

// The analyst's choices for numeric questions: the estimator, PML's curvature
// penalty and each question's histogram bin width (in its own unit: one width
// for a survey of ages and incomes fits neither), sent to the server as
// ?estimator=, ?curvature_penalty= and ?<question id>.bin_width=; and, when a question uses privacy
// levels, HierA's μ and clamp (?mu=, ?clamp=). Left at their defaults,
// nothing is added to the request (the server picks PML with its own penalty,
// a bin width of a twentieth of each range, μ = 1 and no clamp).
const ESTIMATORS = [
  ['', 'Default (PML)'],
  ['pml', 'PML: EM with a curvature penalty'],
  ['ems', 'EMS: EM with [1, 2, 1] smoothing'],
  ['em', 'EM without smoothing'],
  ['kde_sqp', 'KDE + SQP (the RVNS paper; RVNS only)'],
];

// More bars than this cannot be read on a screen (the server allows many more,
// for exports made by hand).
const MAX_SHOWN_BINS = 200;
// The server's bound on an analyst's curvature penalty (core/numeric_results.h).
const MAX_CURVATURE_PENALTY = 1e6;
// The paper's data-reuse count μ: 1 (the default, never worse) to 16.
const MU_CHOICES = Array.from({ length: 16 }, (_, index) => index + 1);

export function createEstimateControls(onChange) {
  const estimator = el('select', { id: 'numeric-estimator', testid: 'numeric-estimator' },
    ESTIMATORS.map(([value, text]) => el('option', { value, text })));
  // One bin width field per numeric question (show() makes them).
  const binWidthFields = el('div', { class: 'numeric-controls', testid: 'numeric-bin-widths' });
  let binWidths = [];  // {id, text, unit, range, input}
  const penalty = el('input', {
    id: 'numeric-curvature-penalty', type: 'text', inputmode: 'decimal', autocomplete: 'off', placeholder: 'automatic',
    testid: 'numeric-curvature-penalty', 'aria-describedby': 'numeric-curvature-penalty-hint',
  });
  const mu = el('select', { id: 'numeric-mu', testid: 'numeric-mu', 'aria-describedby': 'numeric-levels-hint' },
    MU_CHOICES.map((value) => el('option', { value: String(value), text: value === 1 ? '1 (default)' : String(value) })));
  const clamp = el('input', { id: 'numeric-clamp', type: 'checkbox', testid: 'numeric-clamp', 'aria-describedby': 'numeric-levels-hint' });
  // Only for surveys with a privacy levels question (show() below).
  const levelsControls = el('div', { class: 'levels-controls', testid: 'numeric-levels-controls', hidden: true }, [
    el('div', { class: 'numeric-controls' }, [
      el('div', { class: 'field' }, [el('label', { for: mu.id, text: 'HierA reuse μ (privacy levels)' }), mu]),
      el('div', { class: 'field field-checkbox' }, [clamp, el('label', { for: clamp.id, text: 'Clamp (the paper’s mode)' })]),
    ]),
    el('p', { class: 'hint', id: 'numeric-levels-hint', text: 'For privacy levels questions only. μ is how often HierA reuses each report (the paper’s data reuse); 1 is never worse. Clamping the debiased counts, as the paper does, biases the mean, so a clamped mean has no interval.' }),
  ]);
  const message = el('p', { class: 'notice notice-error', role: 'alert', testid: 'numeric-controls-error', hidden: true });
  const element = el('section', { class: 'card', hidden: true, testid: 'numeric-controls', 'aria-label': 'Numeric estimates' }, [
    el('div', { class: 'numeric-controls' }, [
      el('div', { class: 'field' }, [el('label', { for: estimator.id, text: 'Estimator (numeric questions)' }), estimator]),
      el('div', { class: 'field' }, [el('label', { for: penalty.id, text: 'Smoothing λ (PML)' }), penalty]),
    ]),
    binWidthFields,
    el('p', { class: 'hint', id: 'numeric-curvature-penalty-hint', text: 'PML’s curvature penalty: larger is smoother. Empty means automatic (1e-5·√N for N reported values, lowered by the reports’ marginal likelihood for one-value mechanisms). Try a few values to see how much a conclusion depends on the smoothing.' }),
    el('p', { class: 'hint', id: 'numeric-bin-width-hint', text: 'Each question’s histogram bin width, in its own unit; empty means a twentieth of its range (shown greyed).' }),
    levelsControls,
    message,
  ]);

  let query = {};     // what the next request asks for
  let accepted = {};  // the last query the server answered
  const readQuery = () => {
    const next = {};
    if (estimator.value) next.estimator = estimator.value;
    const usesPenalty = estimator.value === '' || estimator.value === 'pml';
    penalty.disabled = !usesPenalty;
    const penaltyText = penalty.value.trim();
    if (usesPenalty && penaltyText !== '') {
      const parsed = parseDecimal(penaltyText);
      if (!parsed.ok) return { error: `Smoothing λ: ${parsed.message}` };
      const { value } = parsed;
      if (!(value >= 0 && value <= MAX_CURVATURE_PENALTY)) {
        return { error: `The smoothing λ must be a number from 0 to ${formatNumber(MAX_CURVATURE_PENALTY)}.` };
      }
      next.curvature_penalty = String(value);
    }
    for (const field of binWidths) {
      const text = field.input.value.trim();
      if (text === '') continue;
      const parsed = parseDecimal(text);
      const name = `“${field.text}”`;
      if (!parsed.ok) return { error: `Bin width of ${name}: ${parsed.message}` };
      const { value } = parsed;
      if (!(value > 0)) return { error: `The bin width of ${name} must be a positive number.` };
      const smallest = (field.range[1] - field.range[0]) / MAX_SHOWN_BINS;
      if (value < smallest) {
        return { error: `The bin width of ${name} must be at least ${formatNumber(smallest)}, so that its histogram has no more than ${MAX_SHOWN_BINS} bins.` };
      }
      next[`${field.id}.bin_width`] = String(value);
    }
    if (mu.value !== '1') next.mu = mu.value;
    if (clamp.checked) next.clamp = 'true';
    return { query: next };
  };
  const apply = () => {
    const { query: next, error } = readQuery();
    showMessage(error);
    if (error) return;
    query = next;
    onChange();
  };
  estimator.addEventListener('change', apply);
  penalty.addEventListener('change', apply);
  mu.addEventListener('change', apply);
  clamp.addEventListener('change', apply);

  const showMessage = (text) => {
    message.hidden = !text;
    message.textContent = text ?? '';
  };

  return {
    element,
    // `numeric` is the survey's numeric questions (results entries). The
    // paper's KDE + SQP estimator exists only for RVNS: offered only when
    // every numeric question uses RVNS (the server refuses it otherwise).
    show(numeric) {
      const ranged = numeric.filter((question) => question.range);
      const key = JSON.stringify(ranged.map((question) => [question.id, question.range, question.unit ?? '']));
      if (key !== binWidthFields.dataset.key) {
        binWidthFields.dataset.key = key;
        binWidths = ranged.map((question) => createBinWidthField(question, apply));
        binWidthFields.replaceChildren(...binWidths.map((field) => field.element));
      }
      const kde = estimator.querySelector('option[value="kde_sqp"]');
      kde.disabled = !numeric.every((question) => question.mechanism?.name === 'rvns');
      levelsControls.hidden = !numeric.some((question) => question.mechanism?.name === 'levels');
      element.hidden = numeric.length === 0;
    },
    accept() {
      accepted = query;
    },
    // The server refused the query (e.g. a bin width wider than a range): say
    // why, and go back to the last accepted one.
    reject(reason) {
      query = accepted;
      estimator.value = accepted.estimator ?? '';
      penalty.value = accepted.curvature_penalty ?? '';
      penalty.disabled = !(estimator.value === '' || estimator.value === 'pml');
      for (const field of binWidths) field.input.value = accepted[`${field.id}.bin_width`] ?? '';
      mu.value = accepted.mu ?? '1';
      clamp.checked = accepted.clamp === 'true';
      showMessage(`The server refused these settings: ${reason}`);
      onChange();
    },
    // The query string for the results and results.csv requests ('' by default).
    queryString() {
      const search = new URLSearchParams(query).toString();
      return search ? `?${search}` : '';
    },
  };
}

// A question's bin width field: labelled with its text and unit, its default
// (a twentieth of its range) as the placeholder.
function createBinWidthField(question, onChange) {
  const id = question.id;
  const text = String(question.text ?? id);
  const unit = question.unit ?? '';
  const input = el('input', {
    id: `numeric-bin-width-${id}`, type: 'text', inputmode: 'decimal', autocomplete: 'off',
    placeholder: formatNumber((question.range[1] - question.range[0]) / 20),
    testid: `numeric-bin-width-${id}`, 'aria-describedby': 'numeric-bin-width-hint',
  });
  input.addEventListener('change', onChange);
  const label = `Bin width: ${text}${unit ? ` (${unit})` : ''}`;
  return {
    id, text, unit, range: question.range, input,
    element: el('div', { class: 'field' }, [el('label', { for: input.id, text: label }), input]),
  };
}
