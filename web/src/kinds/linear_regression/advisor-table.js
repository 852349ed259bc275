import { el } from '../../shared/dom.js';
import { scrollBox } from '../../shared/scroll-box.js';
import { formatInteger, formatNumber, formatSignificant } from '../../shared/format.js';

// The core's design advice for a model (core.designAdvice(definition, id, n),
// kind "model_rounds"; core/kinds/linear_regression/model_advice.h): how the
// expected respondents fall into rounds and chains, whether the results will
// have an interval, and a rough 95% error of each coefficient (from the
// gradient noise; not an interval).

const plusMinus = (value) => (value === null ? '—' : `±${formatSignificant(value, 2)}`);

// `units`: {target, features: {id: unit}} of the model's variables ('' when none).
export function renderModelAdvice(advice, units, testidSuffix) {
  const captionId = `advice-caption-${testidSuffix}`;
  const steps = advice.rounds_per_chain === 0
    ? 'fewer rounds than chains, so some chains take no step'
    : `${formatInteger(advice.rounds_per_chain)} or more steps per chain`;
  const rounds = `${formatInteger(advice.respondents)} respondents make ${formatInteger(advice.rounds)} rounds of ${formatInteger(advice.batch)}, ` +
    `dealt in turn to ${formatInteger(advice.chains)} chains: ${steps} (each chain steps once per ${formatInteger(advice.respondents_per_chain_step)} respondents). ` +
    `Each round estimates every gradient component to ±${formatSignificant(advice.gradient_ci_half_width, 2)} (95%, clip scale) at most.`;
  const unitOf = (name) => {
    if (name === 'intercept') return units.target;
    const feature = units.features[name];
    if (!units.target && !feature) return '';
    return `(${units.target || '1'} per ${feature || 'unit'})`;
  };
  return el('div', { class: 'advice', testid: `advice-${testidSuffix}` }, [
    el('p', { class: 'advice-recommendation', testid: `advice-rounds-${testidSuffix}`, text: rounds }),
    advice.interval ? null : el('p', {
      class: 'notice notice-warning', testid: `advice-no-interval-${testidSuffix}`,
      text: advice.chains < 2
        ? 'With one chain the results have no interval: set two or more chains.'
        : `Fewer respondents than one round per chain: the results will have no interval until ${formatInteger(advice.respondents_per_chain_step)} respondents have answered.`,
    }),
    el('p', {
      class: 'hint', id: captionId,
      text: `A rough 95% error of each coefficient (as wide as the results’ interval would be, t with ${formatInteger(advice.chains - 1)} degrees of freedom): ` +
        `${advice.note}. Assumed: ${advice.assumption}.`,
    }),
    scrollBox(el('table', { class: 'advice-table', 'aria-describedby': captionId, testid: `advice-table-${testidSuffix}` }, [
      el('thead', {}, [el('tr', {}, ['Coefficient', 'About ± (variables scaled to −1…1)', 'About ± (in the variables’ units)']
        .map((text) => el('th', { scope: 'col', text })))]),
      el('tbody', {}, advice.coefficients.map((row) => el('tr', { dataset: { coefficient: row.name } }, [
        el('th', { scope: 'row', text: row.name }),
        el('td', { class: 'number', text: plusMinus(row.ci_half_width) }),
        el('td', { class: 'number', text: row.ci_half_width_units === null ? '—' : `${plusMinus(row.ci_half_width_units)}${unitOf(row.name) ? ` ${unitOf(row.name)}` : ''}` }),
      ]))),
    ]), { label: 'Coefficient precision' }),
    el('p', { class: 'hint', text: `ε = ${formatNumber(advice.epsilon)} per respondent for the model.` }),
  ]);
}
