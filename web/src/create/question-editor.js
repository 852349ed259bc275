import { el, replaceChildren, setText } from '../shared/dom.js';
import { labelledField, numberMessageOf } from '../shared/labelled-field.js';
import { numberInput } from '../shared/number-input.js';
import { kindOf } from '../kinds/registry.js';
import { confidentialFeedback } from '../central/create.js';
import { checkQuestion, checkQuestionInSurvey } from './definition-builder.js';
import { largeEpsilonWarning } from './epsilon-warning.js';
import { createKind } from './kinds.js';
import { createShowIfField } from './show-if-field.js';

// One question of the survey being built: its text, answer type and id, the
// fields of its kind (kinds/<type>/create.js), its privacy budget ε, and
// live feedback (its budget and, for kinds that have one, the advisor's
// comparison of mechanisms). A kind whose create module says
// `supportsConfidential` or `supportsOpen` also offers "Who sees the answer":
// randomised on the respondent's device (its mechanism, the default),
// answered in confidence (a publication budget instead; see
// central/trust.js) or asked openly (neither; see shared/open.js).

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
  const epsilonMessage = numberMessageOf(inputs.epsilon);
  const epsilon = {
    field: epsilonField,
    input: inputs.epsilon,
    setDisabled(disabled) {
      if (inputs.epsilon.disabled === disabled) return;
      inputs.epsilon.disabled = disabled;
      epsilonMessage.update();  // a disabled field shows no message; an enabled one is checked again
    },
  };
  const trust = createTrustFields(fieldId, initial);
  const showIf = createShowIfField(fieldId, initial);
  const privacy = el('p', { class: 'question-privacy', testid: 'question-privacy' });
  // Shown under the privacy line when this question's ε is large (core's ε, so RVNS's derived one too).
  const warning = el('p', { class: 'notice notice-warning epsilon-warning', id: fieldId('epsilon-warning'), testid: 'epsilon-warning', hidden: true });
  const showWarning = (value, scope) => {
    const text = largeEpsilonWarning(value, scope) ?? '';
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
    trust.chooser,
    kindFields,
    trust.centralFields,
    el('div', { class: 'field field-checkbox' }, [inputs.optional,
      el('label', { for: inputs.optional.id, text: 'Respondents may skip this question' })]),
    showIf.element,
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
      // Only a kind that can be answered in confidence or asked openly shows the choice.
      const kind = createKind(activeType);
      const chosen = trust.sync({ central: kind.supportsConfidential === true, open: kind.supportsOpen === true });
      kindEditor.setConfidential?.(chosen === 'central');
      // Asked openly: no mechanism, so none of its fields (ε among them).
      kindEditor.setOpen?.(chosen === 'open');
      return {
        id: inputs.id.value,
        text: inputs.text.value,
        type: activeType,
        epsilon: inputs.epsilon.value,
        required: !inputs.optional.checked,
        showIf: showIf.read(),
        ...kindEditor.read(),
        privacy: chosen,
        budget: trust.budget.value,
        adminSeesCounts: trust.adminCounts.checked,
      };
    },
    // Live feedback from the chosen kind: this question's budget (and its
    // warning when large) and, if the kind has one, the advisor's table.
    // `earlier`: the values of the questions before this one (a kind whose
    // question refers to them checks it after them: checkInSurvey).
    showFeedback(core, respondents, earlier = []) {
      showIf.update(earlier);
      const values = this.read();
      const central = values.privacy === 'central';
      let result;
      if (values.privacy === 'open') result = openFeedback(checkQuestion(core, values));
      else if (central) result = confidentialFeedback(core, checkQuestion(core, values), respondents, this.index);
      else result = activeEditor().feedback(core, {
        values, respondents, index: this.index, earlier,
        check: () => checkQuestion(core, values),
        checkInSurvey: () => checkQuestionInSurvey(core, values, earlier),
      });
      privacy.className = result.error ? 'question-privacy notice notice-error' : 'question-privacy';
      setText(privacy, `This question: ${result.privacy}`);
      showWarning(result.epsilon, central ? 'central' : 'question');
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

// "Who sees the answer" (shown only for a kind that can be answered in
// confidence or asked openly, with the choices it has) and, when in
// confidence, the publication budget and whether admins may see the exact
// counts. `sync({central, open})` (what the kind supports) shows what
// applies and returns the question's privacy: 'local', 'central' or 'open'.
function createTrustFields(fieldId, initial) {
  const name = fieldId('trust');
  const radio = (value, label, testid) => {
    const id = fieldId(`trust-${value}`);
    const input = el('input', { type: 'radio', id, name, value, testid, checked: (initial.privacy ?? 'local') === value });
    return { input, label: el('label', { class: 'choice', for: id }, [input, el('span', { text: label })]) };
  };
  const local = radio('local', 'Randomised on the respondent’s device (local)', 'question-trust-local');
  const central = radio('central', 'Answered in confidence (central)', 'question-trust-central');
  const open = radio('open', 'Asked openly (demographics, strata)', 'question-trust-open');
  const hintId = fieldId('trust-hint');
  const centralHint = el('span', { text: 'In confidence: the organisation receives the answer as given and publishes only releases with added noise, which together spend at most the budget. ' });
  const openHint = el('span', { text: 'Openly: the answer is sent as given and published exactly (counts of 1 to 4 hidden), to break the other results down by it; it is not protected and has no ε, so it is outside the survey’s total.' });
  const chooser = el('fieldset', { class: 'trust-chooser', 'aria-describedby': hintId, testid: 'question-trust' }, [
    el('legend', { text: 'Who sees the answer' }),
    el('div', { class: 'choices trust-choices' }, [local.label, central.label, open.label]),
    el('p', { class: 'hint', id: hintId }, [
      'Local: each answer is randomised on the respondent’s device; the organisation never sees it. ', centralHint, openHint,
    ]),
  ]);
  const budget = numberInput({ id: fieldId('budget'), value: initial.budget ?? '1', testid: 'question-budget' });
  const adminCounts = el('input', { id: fieldId('admin-counts'), type: 'checkbox', checked: initial.adminSeesCounts === true, testid: 'question-admin-counts' });
  const centralFields = el('div', { class: 'central-fields', testid: 'question-central-fields' }, [
    field(budget, 'Publication budget (epsilon)', 'What every release of this question together may spend (0.01 to 30; 1,5 or 1.5).'),
    el('div', { class: 'field field-checkbox' }, [adminCounts,
      el('label', { for: adminCounts.id, text: 'Let admins see exact counts' })]),
    el('p', { class: 'hint', text: 'Exact counts are never published; ticked, the admin can look at them on the dashboard (they are not private).' }),
  ]);
  return {
    chooser,
    centralFields,
    budget,
    adminCounts,
    sync(supports) {
      chooser.hidden = !supports.central && !supports.open;
      central.label.hidden = !supports.central;
      centralHint.hidden = !supports.central;
      open.label.hidden = !supports.open;
      openHint.hidden = !supports.open;
      // A choice the kind does not have (the type was changed) counts as local.
      const chosen = supports.central && central.input.checked ? 'central' : (supports.open && open.input.checked ? 'open' : 'local');
      centralFields.hidden = chosen !== 'central';
      return chosen;
    },
  };
}

// The live line of a question asked openly: no ε and no advisor; the core's
// objection (e.g. to its options) when it has one.
function openFeedback(checked) {
  if (!checked.ok) return { epsilon: undefined, privacy: checked.message, error: true };
  return { epsilon: undefined, privacy: 'asked openly: not protected (sent as given and published exactly; not counted in the survey’s ε)' };
}

// A labelled field (with its hint and, for a number, its message slot); the
// kinds lay out their fields with it too.
const field = labelledField;
