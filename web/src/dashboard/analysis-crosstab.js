import { el, replaceChildren, setText } from '../shared/dom.js';
import { scrollBox } from '../shared/scroll-box.js';
import { formatInteger, formatInterval, formatPercent } from '../shared/format.js';
import { createAnalysisDownloads } from './analysis-downloads.js';
import { createAnalysisRunner } from './analysis-runner.js';

// The cross-tab panel: the joint distribution of two or three questions with
// categories, whatever their privacy (GET .../analysis?cross=q1,q2[,q3];
// core/analysis/cross_analysis.h). Each cell shows the consistent estimate
// (the main number) with its interval; the unbiased estimate and its own
// interval are one tick away. Cells whose combination of open answers has
// fewer than 5 respondents are hidden by the server; the marginals follow.

const TESTID = 'crosstab';

// `questions`: the survey's questions with categories [{id, text}].
export function createCrossTab(questions, { surveyId, interval }) {
  const pickers = [0, 1, 2].map((index) => {
    const select = el('select', { id: `${TESTID}-q${index + 1}`, testid: `${TESTID}-q${index + 1}` }, [
      index === 2 ? el('option', { value: '', text: 'None (two questions)' }) : null,
      ...questions.map((question, position) => el('option', {
        value: question.id, text: question.text, selected: index < 2 && position === index,
      })),
    ]);
    const label = ['First question (rows)', 'Second question (columns)', 'Third question (optional: one table each)'][index];
    return { select, field: el('div', { class: 'field' }, [el('label', { for: select.id, text: label }), select]) };
  });
  const run = el('button', { type: 'button', class: 'button', testid: `${TESTID}-run`, text: 'Cross-tabulate' });
  const pickError = el('p', { class: 'field-error', role: 'alert', testid: `${TESTID}-pick-error`, hidden: true });
  const unbiased = el('input', { type: 'checkbox', id: `${TESTID}-unbiased`, testid: `${TESTID}-unbiased` });
  const tables = el('div', { class: 'analysis-tables', testid: `${TESTID}-tables` });
  const marginals = el('div', { class: 'analysis-marginals', testid: `${TESTID}-marginals` });
  const summary = el('p', { class: 'hint', testid: `${TESTID}-summary` });
  const warning = el('p', { class: 'notice notice-warning', testid: `${TESTID}-warning`, hidden: true });
  const runner = createAnalysisRunner({ surveyId, testid: TESTID, interval, render, clearStale });
  // A new run: the last answer's numbers leave the screen.
  function clearStale() {
    setText(summary, '');
    warning.hidden = true;
    replaceChildren(tables, []);
    replaceChildren(marginals, []);
    downloads.setEnabled(false);
  }
  const downloads = createAnalysisDownloads(surveyId, TESTID, () => runner.current());

  function chosen() {
    return pickers.map((picker) => picker.select.value).filter(Boolean);
  }

  run.addEventListener('click', () => {
    const ids = chosen();
    const distinct = new Set(ids).size === ids.length;
    pickError.hidden = distinct;
    setText(pickError, distinct ? '' : 'Choose different questions.');
    if (!distinct) return;
    runner.run({ cross: ids });
  });
  unbiased.addEventListener('change', () => {
    tables.classList.toggle('show-unbiased', unbiased.checked);
  });

  function render(document) {
    const titles = document.questions.map((question) => questions.find((entry) => entry.id === question.id)?.text ?? question.id);
    setText(summary, `${formatInteger(document.n)} respondents answered ${document.questions.length === 2 ? 'both' : 'all three'} questions.`);
    setText(warning, document.warning ? `Note: ${document.warning}` : '');
    warning.hidden = !document.warning;
    replaceChildren(tables, renderTables(document, titles));
    replaceChildren(marginals, renderMarginals(document, titles));
    downloads.setEnabled(true);
  }

  const element = el('section', { class: 'card analysis-panel', 'aria-labelledby': `${TESTID}-heading`, testid: `${TESTID}-panel` }, [
    el('h2', { id: `${TESTID}-heading`, text: 'Cross-tabulation' }),
    el('p', { class: 'hint', text: 'The share of respondents with each combination of answers, for any two or three questions with options, randomised or not.' }),
    el('div', { class: 'field-row' }, pickers.slice(0, 2).map((picker) => picker.field)),
    pickers[2].field,
    el('div', { class: 'analysis-actions' }, [run]),
    pickError,
    ...runner.elements,
    summary,
    warning,
    el('p', { class: 'hint', testid: `${TESTID}-consistent-note`, text: 'Consistent: the estimates adjusted to be at least 0, add up to 100% and agree with each question’s own consistent shares; their intervals are the unbiased intervals kept within 0–100% and widened to include them.' }),
    el('div', { class: 'field field-checkbox' }, [unbiased, el('label', { for: unbiased.id, text: 'Also show the unbiased estimates (which can fall below 0) and their 95% intervals' })]),
    tables,
    marginals,
    downloads.element,
  ]);
  return {
    element,
    refresh() {
      if (runner.current()) runner.run(runner.current().spec);
    },
  };
}

// One table (two questions) or one per option of the third; the first
// question is the slowest in the cells' order.
function renderTables(document, titles) {
  const [rows, columns, layers] = document.questions.map((question) => question.labels);
  const layerCount = layers ? layers.length : 1;
  return Array.from({ length: layerCount }, (_, layer) => {
    const captionId = `${TESTID}-caption-${layer}`;
    const caption = layers ? `${titles[0]} × ${titles[1]}, for ${titles[2]}: ${layers[layer]}` : `${titles[0]} (rows) × ${titles[1]} (columns)`;
    return scrollBox(el('table', { class: 'results-table crosstab-table', 'aria-describedby': captionId, testid: `${TESTID}-table-${layer}` }, [
      el('caption', { id: captionId, text: caption }),
      el('thead', {}, [el('tr', {}, [el('td', {}), ...columns.map((label) => el('th', { scope: 'col', text: label }))])]),
      el('tbody', {}, rows.map((rowLabel, row) => el('tr', {}, [
        el('th', { scope: 'row', text: rowLabel }),
        ...columns.map((_, column) => {
          const index = (row * columns.length + column) * layerCount + layer;
          return renderCell(document.cells[index], index);
        }),
      ]))),
    ]));
  });
}

function renderCell(cell, index) {
  const testid = `${TESTID}-cell-${index}`;
  if (cell.hidden) return el('td', { class: 'number hidden-cell', testid, dataset: { hidden: 'true' }, text: 'fewer than 5' });
  return el('td', {
    class: 'number', testid,
    dataset: { consistent: String(cell.consistent), estimate: String(cell.estimate), low: String(cell.consistent_ci_low), high: String(cell.consistent_ci_high) },
  }, [
    el('strong', { text: formatPercent(cell.consistent) }),
    el('span', { class: 'cell-interval', text: ` (${formatInterval(cell.consistent_ci_low, cell.consistent_ci_high)})` }),
    el('span', { class: 'cell-unbiased', text: `unbiased ${formatPercent(cell.estimate)} (${formatInterval(cell.ci_low, cell.ci_high)})` }),
  ]);
}

function renderMarginals(document, titles) {
  return [
    el('h3', { text: 'Each question’s shares among these respondents' }),
    ...document.marginals.map((marginal, position) => {
      const labels = document.questions[position].labels;
      return scrollBox(el('table', { class: 'results-table', testid: `${TESTID}-marginal-${marginal.id}` }, [
        el('caption', { text: titles[position] }),
        el('thead', {}, [el('tr', {}, ['Option', 'Consistent', 'Unbiased', 'Standard error'].map((text) => el('th', { scope: 'col', text })))]),
        el('tbody', {}, labels.map((label, option) => {
          const estimate = marginal.frequency[option];
          const se = marginal.std_error?.[option];
          return el('tr', {}, [
            el('th', { scope: 'row', text: label }),
            el('td', { class: 'number', text: formatPercent(marginal.consistent?.[option]) }),
            el('td', { class: 'number', text: formatPercent(estimate) }),
            el('td', { class: 'number', text: formatPercent(se) }),
          ]);
        })),
      ]));
    }),
  ];
}
