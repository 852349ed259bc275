// The dashboard's part of a model question: its results panel. Its facts
// (reports, ε and how it adds to the questions' own, mechanism, rounds
// completed and the current round's progress), the server's warning, the
// coefficients by round (chart, and a table behind a disclosure), and the
// final coefficients in the variables' units with their 95% intervals from
// the chains' disagreement (the core's uncertainty text says what they cover).
import { el, replaceChildren, setText } from '../../shared/dom.js';
import { scrollBox } from '../../shared/scroll-box.js';
import { formatEpsilon, formatInteger, mechanismLabel } from '../../shared/format.js';
import { createResultCard, resultHeadingId } from '../../shared/result-card.js';
import { createConvergenceCharts } from './convergence-chart.js';

const COEFFICIENT = new Intl.NumberFormat('en', { maximumSignificantDigits: 4 });
const MISSING = '—';

function coefficientText(value) {
  return typeof value === 'number' && Number.isFinite(value) ? COEFFICIENT.format(value) : MISSING;
}

// What the panel is built from: the coefficients' names (fixed for a survey version).
export function structure(question) {
  return question.names ?? null;
}

// The bound on the rounds (max_rounds), and whether the model reached it.
function maxRoundsText(result) {
  if (typeof result.max_rounds !== 'number') return MISSING;
  return `${formatInteger(result.max_rounds)}${result.complete ? ' (complete: no more reports are taken)' : ''}`;
}

// The held-out rounds' prediction error in the target's units squared, or the core's note (why there is none yet).
function outOfSampleText(result) {
  const held = result.out_of_sample;
  if (!held) return '';
  if (typeof held.mse_raw !== 'number') return held.note ? `Out-of-sample error: ${sentence(held.note)}` : '';
  const [low, high] = held.interval_raw;
  return `Out-of-sample error: mean squared error ${coefficientText(held.mse_raw)} (95% interval ${coefficientText(low)} to ${coefficientText(high)}), ` +
    `in ${result.target} units squared, from ${formatInteger(held.reports)} held-out respondents whom the model never trained on.`;
}

export function createPanel(question, index) {
  const id = question.id;
  const text = question.text ?? id;
  // An entry whose estimate failed carries only id, type and error.
  const names = question.names ?? ['intercept', ...(question.features ?? [])];
  const headingId = resultHeadingId(index);
  const tableId = `question-table-${index}`;
  const current = el('span', { testid: `current-round-${id}` });
  const progress = el('progress', { max: '1', value: '0', testid: `round-progress-${id}`, 'aria-labelledby': `${headingId}-current` });
  const privacyNote = el('p', { class: 'hint', testid: `privacy-note-${id}` });
  const formula = el('p', { class: 'model-formula', testid: `model-formula-${id}` });
  // Small multiples: one chart per coefficient, each on its own axis.
  const canvases = names.map((name, position) => el('canvas', {
    role: 'img',
    'aria-label': `Line chart of the ${position === 0 ? 'intercept' : `coefficient of ${name}`} of “${text}” after each round, in the variables’ units. The tables below list the numbers.`,
    testid: `chart-${id}-${position}`,
  }));
  const chartBox = el('div', { class: 'model-charts', testid: `chart-${id}` },
    canvases.map((canvas) => el('div', { class: 'chart-box chart-box-model' }, [canvas])));
  const rows = names.map((name, position) => createCoefficientRow(id, name, position));
  const uncertainty = el('p', { class: 'hint', id: `${tableId}-caption`, testid: `uncertainty-${id}` });
  const outOfSample = el('p', { class: 'hint', testid: `out-of-sample-${id}` });
  const roundsBody = el('tbody', { testid: `rounds-table-body-${id}` });
  // Many rounds are listed as an even sample (the results' rounds_shown); the API pages the full series.
  const shownNote = el('p', { class: 'hint', testid: `rounds-shown-${id}` });

  const card = createResultCard(question, index, {
    variant: 'question-result-wide',
    facts: [
      { key: 'n', label: 'Reports (n)' },
      { key: 'epsilon', label: 'Privacy' },
      { key: 'mechanism', label: 'Mechanism' },
      { key: 'rounds', label: 'Rounds completed', testid: 'rounds-completed' },
      { key: 'maxRounds', label: 'Rounds at most', testid: 'max-rounds' },
      { key: 'current', label: 'Current round', labelId: `${headingId}-current`, content: [current, ' ', progress] },
    ],
    afterFacts: [privacyNote],
    body: [
      formula,
      el('h3', { class: 'chart-title', text: 'Coefficients by round' }),
      chartBox,
      el('p', { class: 'hint chart-caption', text: 'One chart per coefficient, each on its own scale: the average of the model’s chains after each completed round (round 0 is the starting model), in the variables’ units. Lines that level off suggest the model has settled; the noise keeps them moving a little.' }),
      el('h3', { class: 'chart-title', text: 'Coefficients' }),
      scrollBox(el('table', { id: tableId, class: 'results-table', 'aria-describedby': `${tableId}-caption`, testid: `coefficients-table-${id}` }, [
        el('thead', {}, [el('tr', {}, ['Coefficient', 'Value', '95% interval'].map((label) => el('th', { scope: 'col', text: label })))]),
        el('tbody', {}, rows.map((row) => row.element)),
      ])),
      uncertainty,
      outOfSample,
      el('details', { class: 'report-details', testid: `rounds-details-${id}` }, [
        el('summary', { text: 'Coefficients by round (table)' }),
        shownNote,
        scrollBox(el('table', { class: 'results-table', testid: `rounds-table-${id}` }, [
          el('thead', {}, [el('tr', {}, ['Round', 'Chain', 'Reports', ...names].map((label) => el('th', { scope: 'col', text: label })))]),
          roundsBody,
        ]), { label: 'Coefficients by round' }),
      ]),
    ],
  });
  const { facts } = card;

  const chart = createConvergenceCharts(canvases, names);
  let roundsKey = '';
  return {
    element: card.element,
    update(result) {
      if (!card.update(result)) return;
      setText(facts.n, formatInteger(result.n));
      setText(facts.epsilon, formatEpsilon(result.privacy?.epsilon ?? result.mechanism?.epsilon ?? null));
      setText(facts.mechanism, `${mechanismLabel({ name: result.mechanism?.name ?? 'piecewise' })}, one gradient component per report`);
      setText(facts.rounds, formatInteger(result.rounds_completed));
      setText(facts.maxRounds, maxRoundsText(result));
      setText(current, `round ${formatInteger(result.current_round)}: ${formatInteger(result.current_round_reports)} of ${formatInteger(result.batch)} reports`);
      progress.max = Math.max(1, result.batch ?? 1);
      progress.value = Math.min(result.current_round_reports ?? 0, progress.max);
      setText(privacyNote, privacyText(result));
      setText(formula, formulaText(result));
      const final = result.coefficients;
      rows.forEach((row, position) => row.update(final, position));
      setText(outOfSample, outOfSampleText(result));
      setText(uncertainty, final ? `Uncertainty: ${sentence(final.uncertainty)}` : 'No coefficients yet: the first round is not complete.');
      const rounds = result.rounds ?? [];
      const shown = result.rounds_shown;
      setText(shownNote, shown && shown.every > 1
        ? `Every ${formatInteger(shown.every)}th round of ${formatInteger(shown.of)}, and the last (the full series: results?${id}.rounds=all).`
        : '');
      chart.update(rounds);
      const key = JSON.stringify(rounds);
      if (key !== roundsKey) {
        roundsKey = key;
        replaceChildren(roundsBody, rounds.map((round) => el('tr', {}, [
          el('th', { scope: 'row', text: String(round.round) }),
          el('td', { class: 'number', text: round.chain === undefined ? MISSING : String(round.chain) }),
          el('td', { class: 'number', text: formatInteger(round.reports) }),
          ...names.map((_, position) => el('td', { class: 'number', text: coefficientText(round.coefficients_raw?.[position]) })),
        ])));
      }
    },
    destroy: () => chart.destroy(),
  };
}

function createCoefficientRow(questionId, name, position) {
  const cells = {
    value: el('td', { class: 'number', testid: `coefficient-${questionId}-${position}` }),
    interval: el('td', { class: 'number', testid: `interval-${questionId}-${position}` }),
  };
  const element = el('tr', {}, [el('th', { scope: 'row', text: name }), cells.value, cells.interval]);
  return {
    element,
    update(final, index) {
      const value = final?.raw?.[index];
      const [low, high] = final?.interval_raw?.[index] ?? [];
      setText(cells.value, coefficientText(value));
      setText(cells.interval, typeof low === 'number' ? `${coefficientText(low)} to ${coefficientText(high)}` : MISSING);
      // The exact numbers, for machines (tests, screen-scrapers); the text is rounded.
      cells.value.dataset.value = String(value ?? '');
      cells.interval.dataset.low = String(low ?? '');
      cells.interval.dataset.high = String(high ?? '');
    },
  };
}

// "pay ≈ 2,000 + 52.01 × age − 3.1 × hours", from the final coefficients.
function formulaText(result) {
  const raw = result.coefficients?.raw;
  const features = result.features ?? [];
  if (!raw) return `${result.target} ≈ b0 + ${features.map((feature, index) => `b${index + 1} × ${feature}`).join(' + ')} (no round complete yet)`;
  const terms = features.map((feature, index) => {
    const value = raw[index + 1];
    return `${value < 0 ? '−' : '+'} ${COEFFICIENT.format(Math.abs(value))} × ${feature}`;
  });
  const chains = result.coefficients.chains;
  const rounds = chains > 1 ? ` (the average of ${chains} chains)` : '';
  const intercept = `${raw[0] < 0 ? '−' : ''}${COEFFICIENT.format(Math.abs(raw[0]))}`;
  return `${result.target} ≈ ${intercept} ${terms.join(' ')}${rounds}`;
}

function privacyText(result) {
  const epsilon = formatEpsilon(result.privacy?.epsilon ?? null);
  const variables = [result.target, ...(result.features ?? [])].join(', ');
  const note = result.privacy?.note ? ` Details: ${result.privacy.note}.` : '';
  return `The model’s ${epsilon} adds to the questions’ own (${variables}): a respondent who answers them all spends the sum.${note}`;
}

// The core's text as a sentence: capital first, full stop last.
function sentence(textValue) {
  const value = String(textValue ?? '').trim();
  if (!value) return value;
  return `${value[0].toUpperCase()}${value.slice(1)}${/[.!?]$/.test(value) ? '' : '.'}`;
}
