import { el } from '../../shared/dom.js';
import { scrollBox } from '../../shared/scroll-box.js';
import { formatInteger, formatNumber, formatPercentSignificant } from '../../shared/format.js';

// The core's design advice for a block (core.designAdvice(definition, id, n),
// kind "block_shares"; core/kinds/block/block_advice.h): for each attribute
// and each privacy setting a respondent can choose for it, the ε share it
// gets and the expected 95% half-width of one option's share, for a rarely
// chosen option and at most for any option.

const SETTINGS = { usual: 'Usual', more_private: 'More private', less_private: 'Less private' };

export function renderBlockAdvice(advice, testidSuffix) {
  const captionId = `advice-caption-${testidSuffix}`;
  return el('div', { class: 'advice', testid: `advice-${testidSuffix}` }, [
    el('p', {
      class: 'hint', id: captionId,
      text: `Expected 95% precision of one option’s share (for the population the respondents come from) with ${formatInteger(advice.respondents)} respondents, ` +
        'for a rarely chosen option and at most for any option, at the ε share each privacy setting gives the attribute (smaller is better). ' +
        `Assumed: ${advice.assumption}.`,
    }),
    scrollBox(el('table', { class: 'advice-table', 'aria-describedby': captionId, testid: `advice-table-${testidSuffix}` }, [
      el('thead', {}, [el('tr', {}, ['Attribute', 'Privacy setting', 'ε share', 'Rarely chosen option ± (95%)', 'Any option, at most ±']
        .map((text) => el('th', { scope: 'col', text })))]),
      advice.attributes.map((attribute) => el('tbody', {}, attribute.choices.map((choice, index) => el('tr', {
        dataset: { attribute: attribute.id, sensitivity: choice.sensitivity },
      }, [
        // The attribute heads its rows (one per setting).
        index === 0 ? el('th', { scope: 'rowgroup', rowspan: String(attribute.choices.length), text: `${attribute.id} (${formatInteger(attribute.options)} options)` }) : null,
        el('th', { scope: 'row', text: SETTINGS[choice.sensitivity] ?? choice.sensitivity }),
        el('td', { class: 'number', text: formatNumber(choice.epsilon) }),
        el('td', { class: 'number rare', text: `±${formatPercentSignificant(choice.ci_half_width, 2)}` }),
        el('td', { class: 'number worst', text: `±${formatPercentSignificant(choice.ci_half_width_worst, 2)}` }),
      ])))),
    ]), { label: 'Share precision by attribute and privacy setting' }),
  ]);
}
