// The dashboard's "Privacy levels" section of a levels question: the mean
// estimated by HierA (Hao et al. 2023) from the exact counts of the report
// values, with its 95% interval (or, clamped, the server's note instead), the
// share of answers in each privacy level (table and chart with error bars),
// the question's exact ε, and behind a disclosure the exact ε of every pair of
// levels next to the paper's claimed values, labelled as claims. Built once
// from the core's description of the mechanism (privacy.details); update()
// takes the results entry's mechanism_estimates.
import { el, setText } from '../../shared/dom.js';
import { scrollBox } from '../../shared/scroll-box.js';
import { formatEpsilon, formatInteger, formatInterval, formatNumber, formatPercent, withUnit } from '../../shared/format.js';
import { stepForRange } from '../../shared/numeric-step.js';
import { createLevelSharesChart } from './charts.js';
import { levelRangesText, levelsFormatter } from './levels.js';

// `question`: the results entry; `details`: its privacy.details.
export function createLevelsSection(question, details) {
  const id = question.id;
  const unit = question.unit ?? '';
  const format = levelsFormatter(details, question.range);
  const value = valueFormatter(question.range);
  const tableId = `levels-table-${id}`;
  const epsilon = el('p', { testid: `levels-epsilon-${id}` }, [
    'Privacy of each report: ', el('strong', { text: formatEpsilon(details.exact_epsilon) }),
    ' (exact, for the level and the direction reported together).',
  ]);
  const mean = el('p', { class: 'levels-mean', testid: `levels-mean-${id}` });
  const error = el('p', { class: 'notice notice-error', role: 'alert', testid: `levels-error-${id}`, hidden: true });
  const canvas = el('canvas', {
    role: 'img', testid: `levels-chart-${id}`, 'aria-describedby': tableId,
    'aria-label': `Bar chart of the estimated share of answers in each privacy level of “${question.text ?? id}”, with 95% error bars. The table below lists them.`,
  });
  // The unit is in the column's title, not in every cell.
  const rows = details.levels.map((level) => createLevelRow(id, level, levelRangesText(level, format, '')));
  const element = el('section', { class: 'levels-section', 'aria-labelledby': `levels-heading-${id}`, testid: `levels-${id}` }, [
    el('h3', { class: 'chart-title', id: `levels-heading-${id}`, text: 'Privacy levels' }),
    el('p', { class: 'hint', text: 'Each report names a privacy level (a range of answers with its own ε) and a direction. From their exact counts come the share of answers in each level and the mean (HierA, Hao et al. 2023; unbiased unless clamped), without the distribution model below.' }),
    epsilon,
    mean,
    error,
    el('div', { class: 'chart-box chart-box-levels' }, [canvas]),
    scrollBox(el('table', { id: tableId, class: 'results-table levels-table', testid: tableId }, [
      el('caption', { text: 'The share of answers in each privacy level, estimated from the reports, with 95% intervals.' }),
      el('thead', {}, [el('tr', {}, ['Level', unit ? `Range (${unit})` : 'Range', 'ε', 'Reports', 'Share', '95% interval']
        .map((text) => el('th', { scope: 'col', text })))]),
      el('tbody', {}, rows.map((row) => row.element)),
    ])),
    pairDisclosure(id, details),
  ]);
  const chart = createLevelSharesChart(canvas, details.levels.map((level) => `Level ${level.level} (ε ${formatNumber(level.epsilon)})`));

  const clear = () => {
    chart.update([]);
    rows.forEach((row) => row.update(null));
  };
  return {
    element,
    // `estimates`: mechanism_estimates (null before the first report).
    update(estimates) {
      error.hidden = !estimates?.error;
      setText(error, estimates?.error ? `The privacy levels’ estimate failed: ${estimates.error}` : '');
      if (!estimates || estimates.error) {
        setText(mean, estimates ? '' : 'No reports yet.');
        setMeanData(mean, null);
        clear();
        return;
      }
      setText(mean, meanText(estimates, value, unit));
      setMeanData(mean, estimates.mean);
      chart.update(estimates.levels);
      estimates.levels.forEach((level, index) => rows[index]?.update(level));
    },
    // The whole estimate failed (the panel says why): nothing to show.
    clear() {
      error.hidden = true;
      setText(mean, '');
      setMeanData(mean, null);
      clear();
    },
    destroy: () => chart.destroy(),
  };
}

// Means to a tenth of the slider's step over the range: whole dollars on
// [0, 200000] (step 1,000), hundredths of a kg/m2 on [15, 45] (step 0.1).
function valueFormatter([low, high]) {
  const decimals = Math.min(6, Math.max(0, -Math.floor(Math.log10(stepForRange(low, high) / 10))));
  const format = new Intl.NumberFormat('en', { maximumFractionDigits: decimals });
  return (number) => (number === null || number === undefined ? '—' : format.format(number));
}

// "Mean (HierA, μ = 1): 93,412 USD, 95% interval 80,100 to 106,700 USD
// (standard error 6,800)." Clamped columns give no honest interval: the
// server's note says so instead.
function meanText({ mu, clamp, mean }, value, unit) {
  const how = `HierA, μ = ${mu}${clamp ? ', clamped' : ''}`;
  const estimate = `Mean (${how}): ${withUnit(value(mean.value), unit)}`;
  if (mean.ci_low === null || mean.ci_high === null) return `${estimate}. No interval: ${mean.note ?? 'none given'}.`;
  return `${estimate}, 95% interval ${value(mean.ci_low)} to ${withUnit(value(mean.ci_high), unit)} (standard error ${value(mean.std_error)}).`;
}

// The exact numbers, for machines (tests, screen-scrapers); the text is rounded.
function setMeanData(node, mean) {
  node.dataset.value = String(mean?.value ?? '');
  node.dataset.low = String(mean?.ci_low ?? '');
  node.dataset.high = String(mean?.ci_high ?? '');
}

function createLevelRow(questionId, level, ranges) {
  const key = `${questionId}-${level.level}`;
  const cells = {
    reported: el('td', { class: 'number', testid: `levels-reports-${key}` }),
    share: el('td', { class: 'number', testid: `levels-share-${key}` }),
    interval: el('td', { class: 'number interval', testid: `levels-ci-${key}` }),
  };
  const element = el('tr', { testid: `levels-row-${key}` }, [
    el('th', { scope: 'row', class: 'nowrap', text: `Level ${level.level}` }),
    el('td', { class: 'levels-ranges', text: ranges }),
    el('td', { class: 'number', text: formatNumber(level.epsilon) }),
    cells.reported, cells.share, cells.interval,
  ]);
  return {
    element,
    update(estimate) {
      setText(cells.reported, formatInteger(estimate?.reported ?? null));
      setText(cells.share, formatPercent(estimate?.share ?? null));
      setText(cells.interval, formatInterval(estimate?.ci_low ?? null, estimate?.ci_high ?? null));
      cells.share.dataset.value = String(estimate?.share ?? '');
      cells.interval.dataset.low = String(estimate?.ci_low ?? '');
      cells.interval.dataset.high = String(estimate?.ci_high ?? '');
    },
  };
}

// The exact ε between answers in each pair of levels, next to what the paper
// claims for them. For the paper variant the claims are smaller than the
// truth; for the bounded one the exact values keep within them.
function pairDisclosure(id, details) {
  const claimLabel = details.variant === 'bounded'
    ? 'The paper’s claim (not a guarantee; this bounded variant keeps within it)'
    : 'The paper’s claim (not a guarantee: the report’s exact ε is larger)';
  return el('details', { class: 'report-details levels-pairs', testid: `levels-pairs-${id}` }, [
    el('summary', { text: 'ε for each pair of levels: exact, and the paper’s claim' }),
    el('p', { class: 'hint', text: 'Row t, column u: how much a report can tell apart an answer in level t from one in level u (the worst case over such answers).' }),
    pairTable(`Exact ε (guaranteed; the question’s ε = ${formatNumber(details.exact_epsilon)} is the largest)`, details.pair_epsilons, details.levels, `levels-pairs-exact-${id}`),
    pairTable(`${claimLabel}: ε = ${formatNumber(details.paper_claimed_epsilon)} overall`, details.paper_claimed_pair_epsilons, details.levels, `levels-pairs-claimed-${id}`),
    details.note ? el('p', { class: 'hint', testid: `levels-note-${id}`, text: `Note: ${details.note}.` }) : null,
  ]);
}

// The caption is a paragraph above the table, not a <caption>: a narrow
// table would squeeze a <caption> into a tall column.
function pairTable(caption, matrix, levels, testid) {
  const captionId = `${testid}-caption`;
  return el('div', { class: 'pair-matrix', testid }, [
    el('p', { class: 'pair-caption', id: captionId, text: caption }),
    scrollBox(el('table', { class: 'results-table pair-table', 'aria-labelledby': captionId }, [
      el('thead', {}, [el('tr', {}, [
        el('th', { scope: 'col', text: 'Level' }),
        levels.map((level) => el('th', { scope: 'col', text: String(level.level) })),
      ])]),
      el('tbody', {}, matrix.map((row, index) => el('tr', {}, [
        el('th', { scope: 'row', text: String(levels[index].level) }),
        row.map((cell) => el('td', { class: 'number', text: formatNumber(cell) })),
      ]))),
    ])),
  ]);
}
