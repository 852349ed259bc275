import { el, setText } from '../../shared/dom.js';
import { createQuestionQueryPanel } from '../../shared/question-query-panel.js';

// The analyst's cross-tabulation for block questions: per question, which
// attributes to cross-tabulate (2 or 3, ticked) and the estimator, sent to
// the server as ?<question id>.crosstab=a,b[,c] and ?<question id>.mode=.
// Untouched, nothing is added to the request (the server then
// cross-tabulates the block's first two attributes with its default mode).

// Tables of more attributes, or of more cells, cannot be read on a screen
// (the server allows up to 2 × joint_order attributes).
const MOST_ATTRIBUTES = 3;
const MOST_CELLS = 1024;

const MODES = [
  ['calibrated', 'Calibrated (default)'],
  ['paper', 'The paper’s'],
];

export function createCrossTabControls(onChange) {
  return createQuestionQueryPanel({
    testid: 'block-controls',
    heading: 'Cross-tabulation of a question’s parts',
    hint: 'Tick the attributes whose joint distribution you want to see, estimated from the respondents who answered them all (or, when too few did, from smaller groups assumed independent). Applies to the page and the CSV export.',
    rowsClass: 'crosstab-rows',
    usable: (blocks) => blocks.filter((question) => Array.isArray(question.attributes)),
    keyOf: (blocks) => blocks.map((question) => [question.id, question.attributes.map((attribute) => attribute.id)]),
    createRow: createQuestionRow,
    refusal: (reason) => `The server refused this cross-tabulation: ${reason}`,
  }, onChange);
}

// One block question: a checkbox per attribute, the estimator, and the
// message slot. Starts from the server's cross-tabulation (its default).
function createQuestionRow(question, onChange) {
  const { id } = question;
  const names = { crosstab: `${id}.crosstab`, mode: `${id}.mode` };
  const fieldId = (name) => `crosstab-${name}-${id}`;
  const most = Math.min(MOST_ATTRIBUTES, question.attributes.length, 2 * (question.joint_order ?? 1));
  // Once the analyst changes a setting, it is always sent (even back to the server's default).
  const touched = { crosstab: false, mode: false };
  const initial = new Set(question.crosstab?.attributes ?? question.attributes.slice(0, 2).map((attribute) => attribute.id));
  const messageId = fieldId('message');
  const hintId = fieldId('hint');
  const boxes = question.attributes.map((attribute) => {
    const box = el('input', {
      type: 'checkbox', id: fieldId(`pick-${attribute.id}`), value: attribute.id, checked: initial.has(attribute.id),
      testid: `crosstab-pick-${id}-${attribute.id}`, 'aria-describedby': `${hintId} ${messageId}`,
    });
    box.addEventListener('change', () => {
      touched.crosstab = true;
      onChange();
    });
    return { attribute, box };
  });
  const mode = el('select', { id: fieldId('mode'), testid: `crosstab-mode-${id}`, 'aria-describedby': fieldId('mode-hint') },
    MODES.map(([value, text]) => el('option', { value, text, selected: value === (question.mode ?? 'calibrated') })));
  mode.addEventListener('change', () => {
    touched.mode = true;
    onChange();
  });
  const initialMode = mode.value;
  const message = el('p', { class: 'field-error', id: messageId, role: 'alert', testid: `crosstab-error-${id}`, hidden: true });

  const element = el('fieldset', { class: 'crosstab-picker', id: `crosstab-controls-${id}`, testid: `crosstab-controls-${id}` }, [
    el('legend', { text: question.text ?? id }),
    el('div', { class: 'crosstab-picks', role: 'group', 'aria-label': 'Attributes to cross-tabulate' }, boxes.map(({ attribute, box }) =>
      el('label', { class: 'choice choice-small', for: box.id }, [box, el('span', { text: attribute.text })]))),
    el('p', { class: 'hint', id: hintId, text: `Tick ${tickCount(most)} (at most ${MOST_CELLS.toLocaleString('en')} cells).` }),
    el('div', { class: 'field crosstab-mode' }, [
      el('label', { for: mode.id, text: 'Estimator' }),
      mode,
      el('p', { class: 'hint', id: fieldId('mode-hint'), text: 'Calibrated: each group of respondents’ own average q, unbiased, with 95% intervals. The paper’s: one q for everyone (biased when respondents split their budgets unequally) and LASSO joints, without intervals.' }),
    ]),
    message,
  ]);

  const own = (query) => [query[names.crosstab] ?? null, query[names.mode] ?? null];
  const picked = () => boxes.filter(({ box }) => box.checked).map(({ attribute }) => attribute);
  return {
    element,
    // The row's part of the query: nothing until the analyst changes it.
    read() {
      const chosen = picked();
      const query = {};
      if (touched.crosstab) {
        if (chosen.length < 2) return { error: 'Tick at least 2 attributes to cross-tabulate.' };
        if (chosen.length > most) return { error: `Tick at most ${most} attributes: a table of more cannot be read here.` };
        const cells = chosen.reduce((product, attribute) => product * attribute.options.length, 1);
        if (cells > MOST_CELLS) return { error: `These attributes make ${cells.toLocaleString('en')} cells; pick attributes with fewer options (at most ${MOST_CELLS.toLocaleString('en')} cells).` };
        query[names.crosstab] = chosen.map((attribute) => attribute.id).join(',');
      }
      if (touched.mode) query[names.mode] = mode.value;
      return { query };
    },
    restore(query) {
      const [crosstab, modeValue] = own(query);
      const ids = new Set(crosstab ? crosstab.split(',') : initial);
      for (const { attribute, box } of boxes) box.checked = ids.has(attribute.id);
      mode.value = modeValue ?? initialMode;
      touched.crosstab = crosstab !== null;
      touched.mode = modeValue !== null;
    },
    changedFrom: (before, after) => JSON.stringify(own(before)) !== JSON.stringify(own(after)),
    showMessage(text) {
      setText(message, text ?? '');
      message.hidden = !text;
    },
  };
}

function tickCount(most) {
  if (most <= 2) return '2 attributes';
  return most === 3 ? '2 or 3 attributes' : `2 to ${most} attributes`;
}
