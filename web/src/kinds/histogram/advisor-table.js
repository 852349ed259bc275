import { el } from '../../shared/dom.js';
import { scrollBox } from '../../shared/scroll-box.js';
import { formatInteger, formatPercent, mechanismShortName } from '../../shared/format.js';

// The core's design advice for one histogram question
// (core.designAdvice(definition, id, n)): for each data consumer, the
// expected 95% half-width of one of its bins' shares under each way of
// collecting it (one report with SUE, with OUE, the tree; and the baseline
// of a separate report per consumer at ε/M each, which also keeps ε when
// consumers pool their data), with the recommendation and its reason.

const Z95 = 1.96;

// A way of collecting in the advice ("sue", or "chp_sue" as earlier cores name it).
const mechanismKey = (row) => row.name.replace(/^chp_/, '');

function columnTitle(key, consumerCount) {
  if (key === 'baseline') return `Separate reports, ε/${consumerCount} each`;
  if (key === 'tree') return 'Tree';
  return `One report, ${mechanismShortName(key)}`;
}

// `names`: the consumers' names, in the definition's order (the advice's
// per-consumer numbers follow it).
export function renderDesignAdvice(advice, names, testidSuffix) {
  const captionId = `advice-caption-${testidSuffix}`;
  const recommended = (row) => mechanismKey(row) === advice.recommended;
  const cellClass = (row, base) => [base, recommended(row) ? 'recommended' : null].filter(Boolean).join(' ') || null;
  return el('div', { class: 'advice', testid: `advice-${testidSuffix}` }, [
    el('p', { class: 'advice-recommendation' }, [
      'Recommended: ',
      el('strong', { testid: `advice-recommended-${testidSuffix}`, dataset: { mechanism: advice.recommended }, text: mechanismShortName(advice.recommended) }),
      el('span', { class: 'hint', testid: `advice-reason-${testidSuffix}`, text: ` — ${advice.reason}.` }),
    ]),
    baselineNote(advice, testidSuffix),
    el('p', { class: 'hint', id: captionId, text: `Expected 95% precision of one bin's share for each data consumer, with ${formatInteger(advice.n)} respondents and ${formatInteger(advice.fine_cells)} fine ranges (smaller is better):` }),
    scrollBox(el('table', { class: 'advice-table', 'aria-describedby': captionId }, [
      el('thead', {}, [el('tr', {}, [
        el('th', { scope: 'col', text: 'Consumer' }),
        advice.mechanisms.map((row) => el('th', { scope: 'col', class: cellClass(row, null) }, [
          columnTitle(mechanismKey(row), names.length), recommended(row) ? el('span', { class: 'badge', text: 'best' }) : null,
        ])),
      ])]),
      el('tbody', {}, names.map((name, index) => el('tr', {}, [
        el('th', { scope: 'row', text: name }),
        advice.mechanisms.map((row) => el('td', {
          class: cellClass(row, 'number'),
          text: `±${formatPercent(halfWidth(row.count_mse_per_bin[index], advice.n))}`,
        })),
      ]))),
    ])),
  ]);
}

// A bin count's expected squared error as the 95% half-width of its share.
function halfWidth(countMse, n) {
  return Z95 * Math.sqrt(countMse) / n;
}

// The consumers for whom separate reports would do better (one report over
// many fine ranges adds every range's noise to a coarse bin): said apart
// from the reason, so that it is not missed.
function baselineNote(advice, testidSuffix) {
  const names = advice.baseline_better_for ?? [];
  if (names.length === 0) return null;
  return el('p', {
    class: 'notice notice-warning', testid: `advice-baseline-${testidSuffix}`,
    text: `Separate reports would be more precise for ${names.map((name) => `“${name}”`).join(', ')}: consider asking ${names.length === 1 ? 'it' : 'them'} in a question of ${names.length === 1 ? 'its' : 'their'} own.`,
  });
}
