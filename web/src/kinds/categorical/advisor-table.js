import { el } from '../../shared/dom.js';
import { scrollBox } from '../../shared/scroll-box.js';
import { formatInteger, formatNumber, formatPercent, mechanismShortName } from '../../shared/format.js';

// The advisor's comparison for one question (core.advise(k, epsilon, n)):
// expected standard error and 95% half-width of a frequency under each
// mechanism, and the recommendation with its reason.
const COLUMNS = [
  ['Mechanism', null],
  ['ε', 'privacy budget'],
  ['SE', 'expected standard error'],
  ['95% ±', 'expected 95% half-width'],
  ['n for ±5 pts', 'respondents needed for a ±5-point 95% interval'],
];

export function renderAdvice(advice, testidSuffix) {
  const recommendedRow = advice.mechanisms.findIndex(
    (row) => row.mechanism === advice.recommended && row.epsilon !== null);
  return el('div', { class: 'advice', testid: `advice-${testidSuffix}` }, [
    el('p', { class: 'advice-recommendation' }, [
      'Recommended: ',
      el('strong', { testid: `advice-recommended-${testidSuffix}`, dataset: { mechanism: advice.recommended }, text: mechanismShortName(advice.recommended) }),
      el('span', { class: 'hint', testid: `advice-reason-${testidSuffix}`, text: ` — ${advice.reason}.` }),
    ]),
    el('p', { class: 'hint', id: `advice-caption-${testidSuffix}`, text: `Expected precision of the share of a rarely chosen option (a share near 0, where these mechanisms are compared) with ${formatInteger(advice.respondents)} respondents and ${advice.options} options. A mechanism with no formal guarantee bounds nothing: its smaller error is bought with privacy that cannot be stated.` }),
    scrollBox(el('table', { class: 'advice-table', 'aria-describedby': `advice-caption-${testidSuffix}` }, [
      el('thead', {}, [el('tr', {}, COLUMNS.map(([text, title]) => el('th', { scope: 'col', title, text })))]),
      el('tbody', {}, advice.mechanisms.map((row, index) => renderRow(row, index === recommendedRow))),
    ])),
  ]);
}

function renderRow(row, recommended) {
  const name = row.mechanism === 'negative' && row.epsilon === null ? 'Pure negative' : mechanismShortName(row.mechanism);
  return el('tr', { class: recommended ? 'recommended' : null }, [
    el('th', { scope: 'row' }, [name, recommended ? el('span', { class: 'badge', text: 'best' }) : null]),
    el('td', { class: row.epsilon === null ? 'no-guarantee' : 'number', text: row.epsilon === null ? 'no formal guarantee' : formatNumber(row.epsilon) }),
    el('td', { class: 'number', text: formatPercent(row.std_error) }),
    el('td', { class: 'number', text: `±${formatPercent(row.ci_half_width)}` }),
    el('td', { class: 'number', text: formatInteger(row.n_for_5_points) }),
  ]);
}
