// "Ask this question": always, or only when an earlier question asked openly
// has given certain answers (the definition's "show_if", checked by the
// core: core/survey/conditions.h). Only questions asked openly can be named:
// whether a follow-up is answered shows in the report, so a condition on a
// randomised or confidential answer would reveal that answer. The field
// says so, and says it at once when such a question is chosen.
import { el, replaceChildren, setText } from '../shared/dom.js';
import { definitionNumber, numberInput } from '../shared/number-input.js';
import { labelledField } from '../shared/labelled-field.js';

export const SHOW_IF_EXPLANATION = 'A follow-up question can be asked only of the respondents whose answer to an earlier question ' +
  'asked openly is one you name; the others never see it, and its results count only those it was asked of. ' +
  'Only a question asked openly can be named: whether a follow-up is answered is visible in the report, so a condition ' +
  'on a randomised or confidential answer would reveal that answer.';

// The refusal shown beside the field when a question that is not asked openly is chosen.
export function showIfRefusal(number, privacy) {
  const how = privacy === 'central' ? 'answered in confidence' : 'randomised on the respondent’s device';
  return `Question ${number} is ${how}: a condition can name only a question asked openly, because whether a ` +
    'follow-up is answered would reveal the true answer. Ask that question openly, or ask this one always.';
}

// `fieldId(name)`: the editor's ids; `initial.showIf`: {question, options, atLeast, atMost}.
export function createShowIfField(fieldId, initial) {
  const start = initial.showIf ?? {};
  const select = el('select', { id: fieldId('show-if'), testid: 'question-show-if' }, [
    el('option', { value: '', text: 'Always' }),
    start.question ? el('option', { value: start.question, text: start.question, selected: true }) : null,
  ]);
  const options = el('textarea', { id: fieldId('show-if-options'), rows: '2', testid: 'question-show-if-options' });
  options.value = start.options ?? '';
  const atLeast = numberInput({ id: fieldId('show-if-at-least'), value: start.atLeast ?? '', testid: 'question-show-if-at-least' });
  const atMost = numberInput({ id: fieldId('show-if-at-most'), value: start.atMost ?? '', testid: 'question-show-if-at-most' });
  const optionsField = labelledField(options, 'Answers that show it, one per line', 'Option labels of the question chosen above, as written there.');
  const rangeField = el('div', { class: 'field-row' }, [
    labelledField(atLeast, 'At least (optional)'), labelledField(atMost, 'At most (optional)'),
  ]);
  const refusal = el('p', { class: 'field-error', id: fieldId('show-if-error'), testid: 'question-show-if-error', hidden: true });
  const hintId = fieldId('show-if-hint');
  select.setAttribute('aria-describedby', `${hintId} ${refusal.id}`);
  const element = el('div', { class: 'show-if', testid: 'question-show-if-field' }, [
    labelledField(select, 'Ask this question', el('p', { class: 'hint', id: hintId, text: SHOW_IF_EXPLANATION })),
    refusal, optionsField, rangeField,
  ]);
  let listKey = '';
  let chosen = null;  // the earlier question's values, when one is chosen

  return {
    element,
    // `earlier`: the values of the questions before this one. Rebuilds the
    // choices only when they change (keeps focus and the choice), then
    // shows the fields of the chosen question's kind and, for one not asked
    // openly, why it cannot be named.
    update(earlier) {
      const key = JSON.stringify(earlier.map((values) => [values.id, values.text]));
      if (key !== listKey) {
        listKey = key;
        const current = select.value;
        replaceChildren(select, [
          el('option', { value: '', text: 'Always' }),
          earlier.map((values, index) => el('option', {
            value: values.id.trim(), text: `Only when question ${index + 1} (${values.id.trim() || 'no id yet'}) is answered…`,
          })),
        ]);
        select.value = earlier.some((values) => values.id.trim() === current) ? current : '';
      }
      const index = earlier.findIndex((values) => values.id.trim() === select.value);
      chosen = index >= 0 ? earlier[index] : null;
      // A question with options is named by them; one answered with a number, by bounds.
      const onOptions = chosen && typeof chosen.options === 'string';
      optionsField.hidden = !onOptions;
      rangeField.hidden = !chosen || onOptions;
      const refused = chosen && chosen.privacy !== 'open';
      refusal.hidden = !refused;
      setText(refusal, refused ? showIfRefusal(index + 1, chosen.privacy) : '');
      if (refused) select.setAttribute('aria-invalid', 'true');
      else select.removeAttribute('aria-invalid');
    },
    // {question, on: 'options' | 'range', options, atLeast, atMost}, or null (always asked).
    read() {
      if (!select.value) return null;
      const numeric = chosen ? typeof chosen.options !== 'string' : start.atLeast !== undefined || start.atMost !== undefined;
      return { question: select.value, on: numeric ? 'range' : 'options', options: options.value, atLeast: atLeast.value, atMost: atMost.value };
    },
  };
}

// The definition's "show_if" from the field's values (null: none). The core judges it.
export function buildShowIf(showIf) {
  if (!showIf?.question) return null;
  if (showIf.on === 'range') {
    const bounds = { at_least: definitionNumber(showIf.atLeast), at_most: definitionNumber(showIf.atMost) };
    return { question: showIf.question, ...Object.fromEntries(Object.entries(bounds).filter(([, value]) => value !== undefined)) };
  }
  const labels = String(showIf.options ?? '').split('\n').map((line) => line.trim()).filter(Boolean);
  return { question: showIf.question, any_of: labels };
}

// The field's values of a definition's "show_if".
export function showIfValues(showIf) {
  if (!showIf?.question) return undefined;
  return {
    question: showIf.question,
    options: Array.isArray(showIf.any_of) ? showIf.any_of.join('\n') : '',
    atLeast: showIf.at_least === undefined ? undefined : String(showIf.at_least),
    atMost: showIf.at_most === undefined ? undefined : String(showIf.at_most),
  };
}
