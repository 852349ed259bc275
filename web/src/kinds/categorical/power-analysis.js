// "Compare two groups" beside the categorical advisor: how many respondents
// each of two groups needs for a difference in an option's share to be found
// (a two-sided test at 5%) with the chosen power, under this question's
// mechanism and ε. The numbers are core's (core.groupPower:
// core/kinds/categorical/group_power.h); this only asks and shows.
import { el, replaceChildren, setText } from '../../shared/dom.js';
import { formatChance, formatInteger, formatPercent } from '../../shared/format.js';
import { decimalOrUndefined, numberInput } from '../../shared/number-input.js';

const POWERS = [['0.8', '80%'], ['0.9', '90%'], ['0.95', '95%']];

// One per question editor, kept across the advice's rebuilds (what was typed stays).
export function createPowerAnalysis(fieldId) {
  const inputs = {
    p1: numberInput({ id: fieldId('power-p1'), value: '10', testid: 'power-p1' }),
    p2: numberInput({ id: fieldId('power-p2'), value: '20', testid: 'power-p2' }),
    power: el('select', { id: fieldId('power-power'), testid: 'power-power' },
      POWERS.map(([value, text]) => el('option', { value, text, selected: value === '0.8' }))),
  };
  const output = el('div', { class: 'power-result', role: 'status', 'aria-live': 'polite', testid: 'power-result' });
  const hintId = fieldId('power-hint');
  const labelled = (input, text) => el('div', { class: 'field' }, [el('label', { for: input.id, text }), input]);
  const element = el('fieldset', { class: 'power-analysis', 'aria-describedby': hintId, testid: 'power-analysis' }, [
    el('legend', { text: 'Compare two groups' }),
    el('p', { class: 'hint', id: hintId, text: 'If you will compare two groups (e.g. women and men, from a question asked openly): the share of an option you expect in each, and the respondents each group needs for the difference to be found.' }),
    el('div', { class: 'field-row' }, [
      labelled(inputs.p1, 'Group 1 share (%)'),
      labelled(inputs.p2, 'Group 2 share (%)'),
      labelled(inputs.power, 'Power'),
    ]),
    output,
  ]);
  let context = null;

  function show() {
    if (!context) return;
    const p1 = decimalOrUndefined(inputs.p1.value);
    const p2 = decimalOrUndefined(inputs.p2.value);
    if (p1 === undefined || p2 === undefined) {
      replaceChildren(output, [el('p', { class: 'hint', text: 'Enter both shares as percentages (0 to 100).' })]);
      return;
    }
    let plan;
    try {
      plan = context.core.groupPower(context.definition, context.questionId, p1 / 100, p2 / 100, Number(inputs.power.value), 0.05);
    } catch (error) {
      replaceChildren(output, [el('p', { class: 'field-error', testid: 'power-error', text: error.message.replace(/^p1/, 'Group 1 share').replace(/^p2/, 'Group 2 share') })]);
      return;
    }
    const [n1, n2] = plan.n_per_group;
    const plain = plan.without_randomisation;
    replaceChildren(output, [
      el('p', {}, [
        'Needed: ',
        el('strong', { testid: 'power-n', dataset: { n1: String(n1), n2: String(n2) }, text: `${formatInteger(n1)} respondents per group` }),
        ` (${formatInteger(plan.n_total)} in all) for ${formatChance(plan.power)} power to detect ${formatPercent(plan.p1)} against ${formatPercent(plan.p2)} at the 5% level.`,
      ]),
      el('p', { class: 'hint', testid: 'power-plain', text: `Without randomisation ${formatInteger(plain.n_per_group[0])} per group would do: the rest is the cost of the privacy.` }),
    ]);
  }

  for (const input of [inputs.p1, inputs.p2, inputs.power]) {
    input.addEventListener('input', show);
    input.addEventListener('change', show);
  }

  return {
    element,
    // The question as checked by core (a one-question survey) and its id.
    update(core, definition, questionId) {
      const key = JSON.stringify([definition, questionId]);
      if (context?.key === key) return;
      context = { core, definition, questionId, key };
      show();
    },
  };
}
