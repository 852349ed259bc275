import { el } from '../../shared/dom.js';
import { scrollBox } from '../../shared/scroll-box.js';
import { formatInteger, formatNumber, formatSignificant, mechanismShortName, withUnit } from '../../shared/format.js';

// The core's design advice for a numeric question
// (core.designAdvice(definition, id, n), kind "numeric_mean";
// core/kinds/numeric/numeric_advice.h): the expected 95% half-width of the
// mean in the question's units for every mechanism at the question's ε and
// range, answers spread evenly (and at most, whatever the answers), the
// respondents each needs for ±5% of the range, and the most precise one. A
// row the core has no formula for (RVNS) shows "—".

const halfWidth = (value, unit) => (value === null ? '—' : `±${withUnit(formatSignificant(value, 3), unit)}`);

export function renderMeanAdvice(advice, { unit }, testidSuffix) {
  const captionId = `advice-caption-${testidSuffix}`;
  const [low, high] = advice.range;
  const best = (row) => row.mechanism === advice.best;
  const current = (row) => row.mechanism === advice.current;
  const numberCell = (text) => el('td', { class: 'number', text });
  return el('div', { class: 'advice', testid: `advice-${testidSuffix}` }, [
    advice.best ? el('p', { class: 'advice-recommendation' }, [
      'Most precise mean: ',
      el('strong', { testid: `advice-recommended-${testidSuffix}`, dataset: { mechanism: advice.best }, text: mechanismShortName(advice.best) }),
      el('span', { class: 'hint', text: ` — ${advice.note}.` }),
    ]) : null,
    el('p', {
      class: 'hint', id: captionId,
      text: `Expected 95% precision of the mean (for the population the respondents come from) with ${formatInteger(advice.respondents)} respondents, ` +
        `every way at ε = ${formatNumber(advice.epsilon)} on ${withUnit(`${formatNumber(low)} to ${formatNumber(high)}`, unit)} (smaller is better). ` +
        `Assumed: ${advice.assumption}.`,
    }),
    scrollBox(el('table', { class: 'advice-table', 'aria-describedby': captionId, testid: `advice-table-${testidSuffix}` }, [
      el('thead', {}, [el('tr', {}, ['Way of collecting', 'Mean ± (95%)', 'At most ± (any answers)', 'Respondents for ±5% of the range']
        .map((text) => el('th', { scope: 'col', text })))]),
      el('tbody', {}, advice.rows.map((row) => el('tr', { class: best(row) ? 'recommended' : null, dataset: { mechanism: row.mechanism } }, [
        el('th', { scope: 'row' }, [
          mechanismShortName(row.mechanism),
          current(row) ? el('span', { class: 'badge badge-muted', text: 'this question' }) : null,
          best(row) ? el('span', { class: 'badge', text: 'best' }) : null,
        ]),
        numberCell(halfWidth(row.ci_half_width, unit)),
        numberCell(halfWidth(row.ci_half_width_worst, unit)),
        numberCell(formatInteger(row.respondents_for_5_percent)),
      ]))),
    ]), { label: 'Mean precision by mechanism' }),
  ]);
}
