import { el, replaceChildren, setText } from '../shared/dom.js';
import { scrollBox } from '../shared/scroll-box.js';
import { formatInteger, formatInterval, formatNumber, formatPercent } from '../shared/format.js';
import { createAnalysisDownloads } from './analysis-downloads.js';
import { createAnalysisRunner } from './analysis-runner.js';
import { dashboardKind } from './kinds.js';

// "Break down by": a question's results per group of an open categorical
// question (GET .../analysis?by=&question=; core/analysis/grouped_analysis.h).
// Each group's results are the question kind's own results document, drawn by
// the kind's own panel (kinds/<type>/dashboard.js) with its chart, error bars
// and table; groups of fewer than 5 are hidden by the server and said so here;
// then each group's difference from the reference group with its interval.

// `byChoices`: the survey's open categorical questions [{id, text}] other than
// this one (the picker is not made when there are none).
export function createBreakdown(question, byChoices, { surveyId, interval }) {
  const base = `breakdown-${question.id}`;
  const select = el('select', { id: `${base}-by`, testid: `${base}-by` }, [
    el('option', { value: '', text: 'No breakdown' }),
    ...byChoices.map((choice) => el('option', { value: choice.id, text: choice.text })),
  ]);
  const groups = el('div', { class: 'analysis-groups', testid: `${base}-groups` });
  const differences = el('div', { class: 'analysis-differences', testid: `${base}-differences` });
  const warning = el('p', { class: 'notice notice-warning', testid: `${base}-warning`, hidden: true });
  let panels = [];
  const runner = createAnalysisRunner({ surveyId, testid: base, interval, render, clearStale: () => clearShown() });
  const downloads = createAnalysisDownloads(surveyId, base, () => runner.current());

  function clearShown() {
    panels.forEach((panel) => panel.destroy());
    panels = [];
    replaceChildren(groups, []);
    replaceChildren(differences, []);
    warning.hidden = true;
    downloads.setEnabled(false);
  }

  function render(document) {
    clearShown();
    setText(warning, document.warning ? `Note: ${document.warning}` : '');
    warning.hidden = !document.warning;
    const byText = byChoices.find((choice) => choice.id === document.by.id)?.text ?? document.by.id;
    replaceChildren(groups, document.groups.map((group, index) => renderGroup(group, index, byText)));
    replaceChildren(differences, renderDifferences(document));
    downloads.setEnabled(true);
  }

  function renderGroup(group, index, byText) {
    const id = `${base}-group-${index}`;
    const heading = el('h3', { id: `${id}-heading` }, [`${byText}: ${group.label} `,
      el('span', { class: 'hint', testid: `${id}-n`, text: `(n = ${countText(group.n)})` })]);
    const box = el('section', { class: 'analysis-group', 'aria-labelledby': `${id}-heading`, testid: id, dataset: { label: group.label } }, [heading]);
    if (typeof group.n !== 'number' || typeof group.respondents !== 'number') {
      // "<5": a small group; "hidden": one more, whose count with the total would give a small one away.
      const small = group.n === '<5' || group.respondents === '<5';
      box.append(el('p', { class: 'hint', testid: `${id}-hidden`, text: small
        ? 'Fewer than 5 respondents: hidden, so that no one can be picked out.'
        : 'Not shown: with the total, this group’s numbers would give away a group of fewer than 5.' }));
    } else if (!group.result) {
      box.append(el('p', { class: 'hint', text: 'No answers to this question in this group.' }));
    } else if (group.result.error) {
      box.append(el('p', { class: 'notice notice-error', text: `No results: ${group.result.error}` }));
    } else {
      const result = { ...group.result, id: `${question.id}-by-${index}`, text: `${question.text} (${byText}: ${group.label})`, type: question.type };
      const panel = dashboardKind(question.type).createPanel(result, `${question.id}-by-${index}`, {});
      panel.update(result);
      panels.push(panel);
      box.append(panel.element);
    }
    return box;
  }

  function renderDifferences(document) {
    const rows = document.differences?.rows ?? [];
    if (!document.differences?.reference || rows.length === 0) {
      return el('p', { class: 'hint', text: 'No differences: fewer than two groups have results.' });
    }
    const captionId = `${base}-differences-caption`;
    const percent = question.type === 'categorical';
    const value = (number) => (percent ? formatPercent(number) : formatNumber(number));
    const interval = (low, high) => (low == null ? '—' : percent ? formatInterval(low, high) : `${formatNumber(low)} to ${formatNumber(high)}`);
    return [
      el('h3', { text: `Differences from ${document.differences.reference}` }),
      el('p', { class: 'hint', id: captionId, text: `Each group’s estimate minus the reference group’s (${document.differences.reference}), with its 95% interval: the groups are different respondents, randomised independently, so the variances add.` }),
      scrollBox(el('table', { class: 'results-table', 'aria-describedby': captionId, testid: `${base}-differences-table` }, [
        el('thead', {}, [el('tr', {}, ['Group', 'Of', 'Difference', '95% CI'].map((text) => el('th', { scope: 'col', text })))]),
        el('tbody', {}, rows.map((row, index) => el('tr', { testid: `${base}-difference-${index}` }, [
          el('th', { scope: 'row', text: row.group }),
          el('td', { text: [row.label, row.measure].filter(Boolean).join(' · ') }),
          el('td', { class: 'number', dataset: { value: String(row.estimate) }, text: value(row.estimate) }),
          el('td', { class: 'number interval', dataset: { low: String(row.ci_low), high: String(row.ci_high) }, text: row.note && row.ci_low == null ? row.note : interval(row.ci_low, row.ci_high) }),
        ]))),
      ])),
    ];
  }

  select.addEventListener('change', () => {
    clearShown();
    if (select.value) runner.run({ by: select.value, question: question.id });
    else runner.clear();
  });

  const element = el('section', { class: 'analysis-breakdown', 'aria-label': `Break down “${question.text}” by group`, testid: base }, [
    el('div', { class: 'field' }, [
      el('label', { for: select.id, text: 'Break down by' }),
      select,
      el('p', { class: 'hint', text: 'Shows the results separately for each answer to a question asked openly, with each group’s own n and intervals.' }),
    ]),
    ...runner.elements,
    warning,
    groups,
    differences,
    downloads.element,
  ]);
  return {
    element,
    // The page's interval choice changed: recompute what is shown.
    refresh() {
      if (select.value) runner.run({ by: select.value, question: question.id });
    },
    destroy: clearShown,
  };
}

function countText(count) {
  if (count === '<5') return 'fewer than 5';
  return typeof count === 'number' ? formatInteger(count) : 'not shown';
}
