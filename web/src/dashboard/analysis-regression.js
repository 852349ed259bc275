import { el, replaceChildren, setText } from '../shared/dom.js';
import { scrollBox } from '../shared/scroll-box.js';
import { formatInteger, formatNumber, formatPercent, formatInterval } from '../shared/format.js';
import { createAnalysisDownloads } from './analysis-downloads.js';
import { createAnalysisRunner } from './analysis-runner.js';

// The regression panel (GET .../analysis?regress=&on=): a randomised
// categorical answer regressed on questions asked openly (rr's rrreg:
// logistic, or multinomial logit for more options; core/analysis/rr_regression.h),
// or an open numeric outcome with one randomised yes/no question among the
// predictors (rr's rrreg.predictor; rr_predictor.h). Shows the coefficients
// with standard errors and 95% intervals (and odds ratios for the logit
// models: exp of the coefficient and of its interval's ends), the predicted
// shares by profile, and whether the fit converged.

const TESTID = 'regression';

// `outcomes`: [{id, text, kind: 'randomised' | 'open-categorical' | 'open-numeric'}];
// `covariates`: [{id, text, open: bool, yesNo: bool}] (open questions, and randomised yes/no ones).
export function createRegression(outcomes, covariates, { surveyId, interval }) {
  const outcome = el('select', { id: `${TESTID}-outcome`, testid: `${TESTID}-outcome` },
    outcomes.map((entry) => el('option', { value: entry.id, text: entry.text })));
  const boxes = covariates.map((entry) => {
    const input = el('input', { type: 'checkbox', id: `${TESTID}-on-${entry.id}`, value: entry.id, testid: `${TESTID}-on-${entry.id}` });
    const label = el('label', { class: 'choice', for: input.id }, [input, el('span', { text: entry.open ? entry.text : `${entry.text} (randomised)` })]);
    return { entry, input, label };
  });
  const covariateHint = el('p', { class: 'hint', id: `${TESTID}-on-hint` });
  const covariateSet = el('fieldset', { class: 'analysis-covariates', 'aria-describedby': covariateHint.id, testid: `${TESTID}-on` }, [
    el('legend', { text: 'Explained by' }),
    el('div', { class: 'choices' }, boxes.map((box) => box.label)),
    covariateHint,
  ]);
  const run = el('button', { type: 'button', class: 'button', testid: `${TESTID}-run`, text: 'Fit the model' });
  const pickError = el('p', { class: 'field-error', role: 'alert', testid: `${TESTID}-pick-error`, hidden: true });
  const facts = el('p', { class: 'hint', testid: `${TESTID}-facts` });
  const convergence = el('p', { class: 'notice', testid: `${TESTID}-converged`, hidden: true });
  const coefficients = el('div', { testid: `${TESTID}-coefficients` });
  const predictions = el('div', { testid: `${TESTID}-predictions` });
  const runner = createAnalysisRunner({ surveyId, testid: TESTID, interval, render, clearStale });
  // A new run: the last answer's numbers leave the screen.
  function clearStale() {
    setText(facts, '');
    convergence.hidden = true;
    replaceChildren(coefficients, []);
    replaceChildren(predictions, []);
    downloads.setEnabled(false);
  }
  const downloads = createAnalysisDownloads(surveyId, TESTID, () => runner.current());

  // Which covariates the chosen outcome allows: open questions other than
  // itself; for an open numeric outcome, the randomised yes/no questions too.
  function syncCovariates() {
    const chosen = outcomes.find((entry) => entry.id === outcome.value);
    const numeric = chosen?.kind === 'open-numeric';
    for (const box of boxes) {
      const allowed = box.entry.id !== outcome.value && (box.entry.open || numeric);
      box.label.hidden = !allowed;
      if (!allowed) box.input.checked = false;
    }
    setText(covariateHint, numeric
      ? 'An open numeric outcome: tick exactly one randomised yes/no question (its effect is estimated) and any open questions.'
      : 'Questions asked openly; a categorical one enters as one term per option after its first.');
  }
  outcome.addEventListener('change', syncCovariates);
  syncCovariates();

  run.addEventListener('click', () => {
    // A randomised predictor goes first (the server reads the first question in "on" as the predictor).
    const ticked = boxes.filter((box) => box.input.checked);
    const on = [...ticked.filter((box) => !box.entry.open), ...ticked.filter((box) => box.entry.open)].map((box) => box.entry.id);
    pickError.hidden = on.length > 0;
    setText(pickError, on.length > 0 ? '' : 'Tick at least one question to explain the outcome by.');
    if (on.length > 0) runner.run({ regress: outcome.value, on });
  });

  function render(document) {
    setText(facts, `${document.model}; ${formatInteger(document.n)} respondents${document.dropped ? ` (${formatInteger(document.dropped)} left out: they skipped a question of the model)` : ''}.${document.note ? ` ${document.note}` : ''}`);
    convergence.hidden = false;
    convergence.className = document.converged ? 'notice' : 'notice notice-warning';
    convergence.dataset.converged = String(document.converged);
    setText(convergence, document.converged
      ? `The fit converged${document.iterations ? ` (${document.iterations} iterations)` : ''}.${document.warning ? ` ${document.warning}` : ''}`
      : `The fit did not converge: ${document.warning ?? 'no intervals'}.`);
    replaceChildren(coefficients, renderCoefficients(document));
    replaceChildren(predictions, renderPredictions(document));
    downloads.setEnabled(true);
  }

  const element = el('section', { class: 'card analysis-panel', 'aria-labelledby': `${TESTID}-heading`, testid: `${TESTID}-panel` }, [
    el('h2', { id: `${TESTID}-heading`, text: 'Regression' }),
    el('p', { class: 'hint', text: 'How an answer depends on others, by maximum likelihood with the randomisation taken into account (as R’s rr package does).' }),
    el('div', { class: 'field' }, [el('label', { for: outcome.id, text: 'Outcome' }), outcome]),
    covariateSet,
    el('div', { class: 'analysis-actions' }, [run]),
    pickError,
    ...runner.elements,
    facts,
    convergence,
    coefficients,
    predictions,
    downloads.element,
  ]);
  return {
    element,
    refresh() {
      if (runner.current()) runner.run(runner.current().spec);
    },
  };
}

function renderCoefficients(document) {
  const logit = document.model === 'logistic' || document.model === 'multinomial logit';
  const rows = document.coefficients ?? [];
  const captionId = `${TESTID}-coefficients-caption`;
  const headers = ['Term', 'Estimate', 'Standard error', '95% CI', ...(logit ? ['Odds ratio (95% CI)'] : [])];
  const name = (coefficient) => [coefficient.equation && coefficient.equation !== 'outcome' ? `${coefficient.equation}:` : '',
    coefficient.outcome_level && document.model === 'multinomial logit' ? `${coefficient.outcome_level}:` : '', coefficient.term].filter(Boolean).join(' ');
  return [
    el('h3', { text: 'Coefficients' }),
    el('p', { class: 'hint', id: captionId, text: logit
      ? `Log-odds of “${document.outcome?.levels?.slice(1).join('”, “') ?? ''}” against “${document.outcome?.reference ?? document.outcome?.levels?.[0] ?? ''}”; an odds ratio above 1 means more likely.`
      : 'The outcome equation’s terms in the outcome’s units; the answer equation models the randomised answer (log-odds).' }),
    scrollBox(el('table', { class: 'results-table', 'aria-describedby': captionId, testid: `${TESTID}-table` }, [
      el('thead', {}, [el('tr', {}, headers.map((text) => el('th', { scope: 'col', text })))]),
      el('tbody', {}, rows.map((coefficient, index) => el('tr', { testid: `${TESTID}-coefficient-${index}` }, [
        el('th', { scope: 'row', text: name(coefficient) }),
        el('td', { class: 'number', dataset: { value: String(coefficient.estimate) }, text: formatNumber(coefficient.estimate) }),
        el('td', { class: 'number', dataset: { value: String(coefficient.std_error) }, text: formatNumber(coefficient.std_error) }),
        el('td', { class: 'number', dataset: { low: String(coefficient.ci_low), high: String(coefficient.ci_high) }, text: numberInterval(coefficient.ci_low, coefficient.ci_high) }),
        logit ? el('td', { class: 'number', text: `${formatNumber(exp(coefficient.estimate))} (${numberInterval(exp(coefficient.ci_low), exp(coefficient.ci_high))})` }) : null,
      ]))),
    ])),
  ];
}

function renderPredictions(document) {
  const profiles = document.predictions ?? [];
  if (profiles.length === 0) return [];
  const levels = profiles[0].shares.map((share) => share.level);
  const captionId = `${TESTID}-predictions-caption`;
  return [
    el('h3', { text: 'Predicted shares by profile' }),
    el('p', { class: 'hint', id: captionId, text: 'The fitted share of each outcome option for each combination of the categorical covariates (numeric ones at their mean), with its 95% interval.' }),
    scrollBox(el('table', { class: 'results-table', 'aria-describedby': captionId, testid: `${TESTID}-predictions-table` }, [
      el('thead', {}, [el('tr', {}, ['Profile', 'n', ...levels].map((text) => el('th', { scope: 'col', text })))]),
      el('tbody', {}, profiles.map((profile) => el('tr', {}, [
        el('th', { scope: 'row', text: Object.entries(profile.profile).map(([id, value]) => `${id} = ${typeof value === 'number' ? formatNumber(value) : value}`).join(', ') }),
        el('td', { class: 'number', text: small(profile.n) ? 'fewer than 5' : formatInteger(profile.n) }),
        // A profile of 1 to 4 respondents is hidden, as the other panels hide small groups of open answers.
        ...(small(profile.n)
          ? [el('td', { class: 'hidden-cell', colspan: String(levels.length), testid: `${TESTID}-profile-hidden`, text: 'hidden' })]
          : profile.shares.map((share) => el('td', { class: 'number' }, [formatPercent(share.estimate), el('span', { class: 'cell-interval', text: ` (${formatInterval(share.ci_low, share.ci_high)})` })]))),
      ]))),
    ])),
  ];
}

const small = (n) => typeof n === 'number' && n > 0 && n < 5;

function exp(value) {
  return value === null || value === undefined ? null : Math.exp(value);
}

function numberInterval(low, high) {
  return low === null || low === undefined ? '—' : `${formatNumber(low)} to ${formatNumber(high)}`;
}
