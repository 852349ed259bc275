import { el, replaceChildren, setText } from '../shared/dom.js';
import { attachNumberMessage, numberInput } from '../shared/number-input.js';
import { kindOf } from '../kinds/registry.js';
import { checkQuestion, checkQuestionInSurvey } from './definition-builder.js';
import { largeEpsilonWarning } from './epsilon-warning.js';
import { createKind } from './kinds.js';

// One question of the survey being built: its text, answer type and id, the
// fields of its kind (kinds/<type>/create.js), its privacy budget ε, and
// live feedback (its budget and, for kinds that have one, the advisor's
// comparison of mechanisms).

let nextKey = 0;

export function createQuestionEditor(initial, { onRemove }) {
  const key = nextKey++;
  const fieldId = (name) => `question-${key}-${name}`;
  const initialType = kindOf(initial.type).name;
  const inputs = {
    id: el('input', { id: fieldId('id'), type: 'text', value: initial.id, autocomplete: 'off', spellcheck: 'false', testid: 'question-id' }),
    text: el('input', { id: fieldId('text'), type: 'text', value: initial.text, testid: 'question-text' }),
    // The kinds the registry knows, each with its own label.
    type: el('select', { id: fieldId('type'), testid: 'question-type' }, createKind.all().map(({ kind, module }) =>
      el('option', { value: kind.name, text: module.label, selected: kind.name === initialType }))),
    epsilon: numberInput({ id: fieldId('epsilon'), value: initial.epsilon, testid: 'question-epsilon' }),
    // Unticked (the default), the question is required.
    optional: el('input', { id: fieldId('optional'), type: 'checkbox', checked: initial.required === false, testid: 'question-optional' }),
  };

  const title = el('legend', {});
  const removeButton = el('button', { type: 'button', class: 'button button-small button-danger', testid: 'remove-question', text: 'Remove' });
  removeButton.addEventListener('click', () => onRemove(editor));
  // The privacy budget: most kinds take one; each kind places this field in
  // its own layout, hides it or disables it (e.g. RVNS, the pure negative survey).
  const epsilonField = field(inputs.epsilon, 'Privacy budget ε', 'Smaller is more private but noisier (0.01 to 30; 1,5 or 1.5).');
  const epsilonMessage = numberMessages.get(inputs.epsilon);
  const epsilon = {
    field: epsilonField,
    input: inputs.epsilon,
    setDisabled(disabled) {
      if (inputs.epsilon.disabled === disabled) return;
      inputs.epsilon.disabled = disabled;
      epsilonMessage.update();  // a disabled field shows no message; an enabled one is checked again
    },
  };
  const privacy = el('p', { class: 'question-privacy', testid: 'question-privacy' });
  // Shown under the privacy line when this question's ε is large (core's ε, so RVNS's derived one too).
  const warning = el('p', { class: 'notice notice-warning epsilon-warning', id: fieldId('epsilon-warning'), testid: 'epsilon-warning', hidden: true });
  const showWarning = (value) => {
    const text = largeEpsilonWarning(value, 'question') ?? '';
    setText(warning, text);  // emptied when hidden: the epsilon field's description points here
    warning.hidden = text === '';
  };
  inputs.epsilon.setAttribute('aria-describedby', `${inputs.epsilon.getAttribute('aria-describedby')} ${warning.id}`);
  const advice = el('div', { class: 'advice-slot' });
  let adviceKey = '';

  // Every kind's fields are made once, so that switching the type and back
  // keeps what was typed; only the chosen kind's are on the page.
  const kindEditors = new Map(createKind.all().map(({ kind, module }) =>
    [kind.name, module.createEditor({ fieldId, initial, field, epsilon })]));
  const kindFields = el('div', { class: 'kind-fields' });
  let activeType = null;
  const activeEditor = () => {
    const type = inputs.type.value;
    if (type !== activeType) {
      activeType = type;
      const kindEditor = kindEditors.get(type);
      replaceChildren(kindFields, kindEditor.nodes);
      kindEditor.activate();
    }
    return kindEditors.get(activeType);
  };

  const element = el('fieldset', { class: 'card question-editor', testid: 'question-editor' }, [
    title,
    el('div', { class: 'editor-toolbar' }, [removeButton]),
    field(inputs.text, 'Question'),
    el('div', { class: 'field-row' }, [
      field(inputs.type, 'Answer type'),
      field(inputs.id, 'Question id', 'Used in reports and exports; letters, digits, - and _.'),
    ]),
    kindFields,
    el('div', { class: 'field field-checkbox' }, [inputs.optional,
      el('label', { for: inputs.optional.id, text: 'Respondents may skip this question' })]),
    privacy,
    warning,
    advice,
  ]);

  const editor = {
    element,
    setPosition(index, count) {
      setText(title, `Question ${index + 1}`);
      element.dataset.testid = `question-editor-${index}`;
      removeButton.hidden = count <= 1;  // a survey needs at least one question
      this.index = index;
    },
    // The common fields (texts, and whether the question is required) and the
    // chosen kind's fields.
    read() {
      const kindEditor = activeEditor();
      kindEditor.sync();
      return {
        id: inputs.id.value,
        text: inputs.text.value,
        type: activeType,
        epsilon: inputs.epsilon.value,
        required: !inputs.optional.checked,
        ...kindEditor.read(),
      };
    },
    // Live feedback from the chosen kind: this question's budget (and its
    // warning when large) and, if the kind has one, the advisor's table.
    // `earlier`: the values of the questions before this one (a kind whose
    // question refers to them checks it after them: checkInSurvey).
    showFeedback(core, respondents, earlier = []) {
      const values = this.read();
      const result = activeEditor().feedback(core, {
        values, respondents, index: this.index,
        check: () => checkQuestion(core, values),
        checkInSurvey: () => checkQuestionInSurvey(core, values, earlier),
      });
      privacy.className = result.error ? 'question-privacy notice notice-error' : 'question-privacy';
      setText(privacy, `This question: ${result.privacy}`);
      showWarning(result.epsilon);
      if (!result.advice) {
        adviceKey = '';
        replaceChildren(advice, []);
        return;
      }
      // Rebuild the advice only when its inputs change (keeps focus on its button).
      const nextKey = JSON.stringify([activeType, result.adviceKey]);
      if (nextKey === adviceKey) return;
      adviceKey = nextKey;
      replaceChildren(advice, result.advice());
    },
  };

  activeEditor().sync();
  return editor;
}

// Each number field's message slot (shared/number-input.js), by input.
const numberMessages = new WeakMap();

// A labelled field (with its hint and, for a number, its message slot); the
// kinds lay out their fields with it too.
function field(input, label, hint) {
  const hintNode = hint ? el('p', { class: 'hint', id: `${input.id}-hint`, text: hint }) : null;
  if (hintNode) input.setAttribute('aria-describedby', hintNode.id);
  const message = input.dataset.number ? attachNumberMessage(input) : null;
  if (message) numberMessages.set(input, message);
  return el('div', { class: 'field' }, [
    el('label', { for: input.id, text: label }),
    input,
    message?.element,
    hintNode,
  ]);
}
