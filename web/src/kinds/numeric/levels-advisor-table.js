import { el } from '../../shared/dom.js';
import { scrollBox } from '../../shared/scroll-box.js';
import { formatInteger, formatNumber, mechanismShortName, withUnit } from '../../shared/format.js';

// The core's design advice for a levels question
// (core.designAdvice(definition, id, n), kind "numeric_mean"): the expected
// 95% half-width of the mean under this question's levels mechanism, the
// other levels variant rescaled to the same exact ε, and the mean mechanisms
// at that ε, with the respondents each needs for ±5% of the range. A row the
// core cannot compute has nulls and shows "—".

// Half-widths to three significant digits ("±4,120 USD", "±0.0213").
const HALF_WIDTH = new Intl.NumberFormat('en', { maximumSignificantDigits: 3 });

// The rows' names in words ("levels_bounded": the other variant, its
// budgets scaled to the same exact ε).
function rowName(mechanism, variant) {
  if (mechanism === 'levels') return `This question (${variant} variant)`;
  if (mechanism.startsWith('levels_')) return `Privacy levels, ${mechanism.slice('levels_'.length)} variant (budgets rescaled)`;
  return mechanismShortName(mechanism);
}

// `variant`: the question's ("paper" or "bounded").
export function renderLevelsAdvice(advice, { unit, variant }, testidSuffix) {
  const name = (mechanism) => rowName(mechanism, variant);
  const captionId = `advice-caption-${testidSuffix}`;
  const best = (row) => row.mechanism === advice.best;
  const numberCell = (text) => el('td', { class: 'number', text });
  return el('div', { class: 'advice', testid: `advice-${testidSuffix}` }, [
    advice.best ? el('p', { class: 'advice-recommendation' }, [
      'Most precise mean: ',
      el('strong', { testid: `advice-recommended-${testidSuffix}`, dataset: { mechanism: advice.best }, text: name(advice.best) }),
    ]) : null,
    el('p', {
      class: 'hint', id: captionId,
      text: `Expected 95% precision of the mean with ${formatInteger(advice.respondents)} respondents, every way at this question’s exact ε = ${formatNumber(advice.epsilon)} (smaller is better). Assumed: ${advice.assumption}.`,
    }),
    scrollBox(el('table', { class: 'advice-table', 'aria-describedby': captionId, testid: `advice-table-${testidSuffix}` }, [
      el('thead', {}, [el('tr', {}, ['Way of collecting', 'Mean ± (95%)', 'Respondents for ±5% of the range']
        .map((text) => el('th', { scope: 'col', text })))]),
      el('tbody', {}, advice.rows.map((row) => el('tr', { class: best(row) ? 'recommended' : null, dataset: { mechanism: row.mechanism } }, [
        el('th', { scope: 'row' }, [name(row.mechanism), best(row) ? el('span', { class: 'badge', text: 'best' }) : null]),
        numberCell(row.ci_half_width === null ? '—' : `±${withUnit(HALF_WIDTH.format(row.ci_half_width), unit)}`),
        numberCell(formatInteger(row.respondents_for_5_percent)),
      ]))),
    ])),
  ]);
}
