// The creation page's part of a rating grid: its label in the type selector,
// its fields in a question editor (items, scale, mechanism), its live budget
// (the grid's ε and each item's share) and the core's advisor comparing the
// mechanisms' precision of an item's mean position and of a level's share,
// and its part of the definition.
import { el } from '../../shared/dom.js';
import { scrollBox } from '../../shared/scroll-box.js';
import { formatEpsilon, formatInteger, formatNumber, formatSignificant } from '../../shared/format.js';
import { decimalOrUndefined, definitionNumber } from '../../shared/number-input.js';

export const label = 'Rating grid (items on one scale)';

const MECHANISMS = [
  ['ordinal', 'Ordinal (nearby levels favoured)'],
  ['grr', 'GRR (randomised response)'],
  ['duchi', 'Duchi on positions (mean only, no distribution)'],
];

const DEFAULT_SCALE = 'Strongly disagree\nDisagree\nNeither agree nor disagree\nAgree\nStrongly agree';

function lines(text) {
  return text.split('\n').map((line) => line.trim()).filter((line) => line.length > 0);
}

export function createEditor({ fieldId, initial, field, epsilon }) {
  const inputs = {
    items: el('textarea', { id: fieldId('grid-items'), rows: '4', testid: 'question-items' }),
    scale: el('textarea', { id: fieldId('grid-scale'), rows: '5', testid: 'question-scale' }),
    mechanism: el('select', { id: fieldId('grid-mechanism'), testid: 'question-grid-mechanism' },
      MECHANISMS.map(([value, text]) => el('option', { value, text, selected: value === (initial.gridMechanism ?? 'ordinal') }))),
  };
  inputs.items.value = initial.items ?? 'First statement\nSecond statement';
  inputs.scale.value = initial.scale ?? DEFAULT_SCALE;
  const mechanismRow = el('div', { class: 'field-row' }, [field(inputs.mechanism, 'Mechanism')]);
  const useMechanism = (name) => {
    inputs.mechanism.value = name;
    inputs.mechanism.dispatchEvent(new Event('change', { bubbles: true }));
    inputs.mechanism.focus();  // the button that had focus is gone with the old advice
  };
  return {
    nodes: [
      field(inputs.items, 'Items (rows), one per line', '2 to 30 statements rated on the same scale.'),
      field(inputs.scale, 'Scale, lowest level first, one per line', '2 to 11 ordered levels.'),
      mechanismRow,
    ],
    activate() {
      mechanismRow.append(epsilon.field);
    },
    sync() {
      epsilon.field.hidden = false;
      epsilon.setDisabled(false);
    },
    read() {
      return { items: inputs.items.value, scale: inputs.scale.value, gridMechanism: inputs.mechanism.value };
    },
    // The budget says the whole grid's ε and each item's share; the core's
    // advice compares the mechanisms for these items, levels, ε and n.
    feedback(core, { values, respondents, index, check }) {
      const epsilonValue = decimalOrUndefined(values.epsilon);
      const itemCount = lines(values.items).length;
      if (epsilonValue === undefined) return { epsilon: undefined, privacy: 'enter a privacy budget ε' };
      const checked = check();
      if (!checked.ok) return { epsilon: undefined, privacy: checked.message, error: true };
      const question = checked.definition.questions[0];
      return {
        epsilon: epsilonValue,
        privacy: `${formatEpsilon(epsilonValue)} for the whole grid: ${formatNumber(epsilonValue / itemCount)} per item over ${formatInteger(itemCount)} items`,
        adviceKey: JSON.stringify([question, respondents, index]),
        advice: () => adviceFor(core, checked.definition, { respondents, index, current: question.mechanism.name }, useMechanism),
      };
    },
  };
}

export function editorValues(question) {
  const mechanism = question.mechanism ?? {};
  return {
    items: (question.items ?? []).join('\n'),
    scale: (question.scale ?? []).join('\n'),
    gridMechanism: mechanism.name,
    epsilon: mechanism.epsilon === undefined ? undefined : String(mechanism.epsilon),
  };
}

export function buildDefinition(values) {
  return {
    items: lines(values.items),
    scale: lines(values.scale),
    mechanism: { name: values.gridMechanism, epsilon: definitionNumber(values.epsilon) },
  };
}

// The core's comparison (GridAdviceToJson): each mechanism's standard error of
// one item's mean position and of one level's share (what the results show per
// item), which one is better for each, the core's sentence saying so plainly
// when they differ, and a button to switch to each recommendation.
function adviceFor(core, definition, { respondents, index, current }, useMechanism) {
  let advice;
  try {
    advice = core.designAdvice(definition, definition.questions[0].id, respondents);
  } catch (error) {
    return el('p', { class: 'hint', testid: `advice-error-${index}`, text: `Advisor: ${error.message}` });
  }
  const captionId = `advice-caption-${index}`;
  const forDistribution = advice.recommended_for_distribution ?? advice.recommended;
  const differ = forDistribution !== advice.recommended;
  const halfWidth = (value) => (value === null || value === undefined ? 'none' : `±${formatSignificant(value, 2)}`);
  const table = el('div', { class: 'advice', testid: `advice-${index}` }, [
    el('p', { class: 'advice-recommendation' }, differ ? [
      'Recommended for the mean: ',
      el('strong', { testid: `advice-recommended-${index}`, dataset: { mechanism: advice.recommended }, text: advice.recommended }),
      '; for the distribution over the scale: ',
      el('strong', { testid: `advice-recommended-distribution-${index}`, dataset: { mechanism: forDistribution }, text: forDistribution }),
    ] : [
      'Recommended for the mean and the distribution over the scale: ',
      el('strong', { testid: `advice-recommended-${index}`, dataset: { mechanism: advice.recommended }, text: advice.recommended }),
    ]),
    el('p', { class: 'hint', testid: `advice-note-${index}`, text: `Advisor: ${advice.note}.` }),
    el('p', { class: 'hint', id: captionId, text: `Expected 95% precision of one item's mean position (1 to ${definition.questions[0].scale.length}) and of one level's share (0 to 1, the least precise level) with ${formatInteger(advice.respondents)} respondents, ${advice.planning} (smaller is better):` }),
    scrollBox(el('table', { class: 'advice-table', 'aria-describedby': captionId }, [
      el('thead', {}, [el('tr', {}, [
        el('th', { scope: 'col', text: 'Mechanism' }), el('th', { scope: 'col', text: 'ε per item' }),
        el('th', { scope: 'col', text: 'Mean: 95% half-width' }), el('th', { scope: 'col', text: 'Level share: 95% half-width' }),
        el('th', { scope: 'col', text: 'Distribution' }),
      ])]),
      // One recommendation: its row is marked; two: each one's cell.
      el('tbody', {}, advice.mechanisms.map((row) => el('tr', { class: !differ && row.name === advice.recommended ? 'recommended' : null }, [
        el('th', { scope: 'row', text: MECHANISMS.find(([name]) => name === row.name)?.[1] ?? row.name }),
        el('td', { class: 'number', text: formatNumber(row.epsilon_per_item) }),
        el('td', { class: differ && row.name === advice.recommended ? 'number recommended' : 'number', testid: `advice-half-width-${index}-${row.name}`, text: halfWidth(row.mean_ci_half_width) }),
        el('td', { class: differ && row.name === forDistribution ? 'number recommended' : 'number', testid: `advice-share-half-width-${index}-${row.name}`, text: halfWidth(row.share_ci_half_width) }),
        el('td', { text: row.distribution ? 'yes' : 'no: the mean only' }),
      ]))),
    ])),
  ]);
  const buttons = [[advice.recommended, 'recommended', differ ? ' (for the mean)' : ''],
    [forDistribution, 'recommended-distribution', ' (for the distribution)']]
    .filter(([name], position) => name !== current && (position === 0 || differ))
    .map(([name, testid, purpose]) => {
      const use = el('button', { type: 'button', class: 'button button-small', testid: `use-${testid}-${index}`, text: `Use ${name}${purpose}` });
      use.addEventListener('click', () => useMechanism(name));
      return use;
    });
  return buttons.length === 0 ? table : [table, ...buttons];
}
