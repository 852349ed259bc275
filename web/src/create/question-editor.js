import { el, replaceChildren, setText } from '../shared/dom.js';
import { formatEpsilon, mechanismShortName } from '../shared/format.js';
import { attachNumberMessage, decimalOrUndefined, numberInput } from '../shared/number-input.js';
import { renderAdvice } from './advisor-table.js';
import { SURVEY_FORMAT, buildQuestion, splitOptions } from './definition-builder.js';
import { largeEpsilonWarning } from './epsilon-warning.js';

// One question of the survey being built: its fields, and live feedback (its
// privacy budget and the advisor's comparison of mechanisms).

const MECHANISMS = [
  ['grr', 'GRR (randomised response)'],
  ['oue', 'OUE (optimised unary)'],
  ['sue', 'SUE (symmetric unary)'],
  ['negative', 'Negative survey'],
];

const NUMERIC_MECHANISMS = [
  ['rvns', 'RVNS (real-value negative survey)'],
  ['square_wave', 'Square Wave (distribution)'],
  ['laplace', 'Laplace (mean and distribution)'],
  ['duchi', 'Duchi (mean)'],
  ['piecewise', 'Piecewise (mean)'],
  ['hybrid', 'Hybrid (mean)'],
];

let nextKey = 0;

export function createQuestionEditor(initial, { onRemove }) {
  const key = nextKey++;
  const fieldId = (name) => `question-${key}-${name}`;
  const inputs = {
    id: el('input', { id: fieldId('id'), type: 'text', value: initial.id, autocomplete: 'off', spellcheck: 'false', testid: 'question-id' }),
    text: el('input', { id: fieldId('text'), type: 'text', value: initial.text, testid: 'question-text' }),
    options: el('textarea', { id: fieldId('options'), rows: '5', testid: 'question-options' }),
    mechanism: el('select', { id: fieldId('mechanism'), testid: 'question-mechanism' },
      MECHANISMS.map(([value, label]) => el('option', { value, text: label, selected: value === initial.mechanism }))),
    epsilon: numberInput({ id: fieldId('epsilon'), value: initial.epsilon, testid: 'question-epsilon' }),
    reportedOptions: numberInput({ id: fieldId('reported'), value: initial.reportedOptions, whole: true, testid: 'question-reported-options' }),
    pureNegative: el('input', { id: fieldId('pure'), type: 'checkbox', testid: 'question-pure-negative' }),
    type: el('select', { id: fieldId('type'), testid: 'question-type' }, [
      el('option', { value: 'categorical', text: 'Choice among options', selected: initial.type !== 'numeric' }),
      el('option', { value: 'numeric', text: 'Number in a range', selected: initial.type === 'numeric' }),
    ]),
    ...createNumericInputs(fieldId, initial),
  };
  inputs.options.value = initial.options;

  const title = el('legend', {});
  const removeButton = el('button', { type: 'button', class: 'button button-small button-danger', testid: 'remove-question', text: 'Remove' });
  removeButton.addEventListener('click', () => onRemove(editor));
  const reportedField = field(inputs.reportedOptions, 'Reported options (s)', 'How many options each respondent reports as not theirs.');
  const pureField = el('div', { class: 'field field-checkbox' }, [inputs.pureNegative,
    el('label', { for: inputs.pureNegative.id, text: 'No epsilon (pure negative survey)' })]);
  const negativeOnly = [reportedField, pureField];
  const numericFields = createNumericFields(inputs);
  const optionsField = field(inputs.options, 'Options, one per line');
  const mechanismField = field(inputs.mechanism, 'Mechanism');
  const epsilonField = field(inputs.epsilon, 'Privacy budget ε', 'Smaller is more private but noisier (0.01 to 30; 1,5 or 1.5).');
  const privacy = el('p', { class: 'question-privacy', testid: 'question-privacy' });
  // Shown under the privacy line when this question's ε is large (core's ε, so RVNS's derived one too).
  const warning = el('p', { class: 'notice notice-warning epsilon-warning', id: fieldId('epsilon-warning'), testid: 'epsilon-warning', hidden: true });
  const showWarning = (epsilon) => {
    const text = largeEpsilonWarning(epsilon, 'question') ?? '';
    setText(warning, text);  // emptied when hidden: the epsilon field's description points here
    warning.hidden = text === '';
  };
  inputs.epsilon.setAttribute('aria-describedby', `${inputs.epsilon.getAttribute('aria-describedby')} ${warning.id}`);
  const advice = el('div', { class: 'advice-slot' });
  let adviceInputs = '';

  const element = el('fieldset', { class: 'card question-editor', testid: 'question-editor' }, [
    title,
    el('div', { class: 'editor-toolbar' }, [removeButton]),
    field(inputs.text, 'Question'),
    el('div', { class: 'field-row' }, [
      field(inputs.type, 'Answer type'),
      field(inputs.id, 'Question id', 'Used in reports and exports; letters, digits, - and _.'),
    ]),
    optionsField,
    numericFields.element,
    el('div', { class: 'field-row' }, [mechanismField, epsilonField, reportedField]),
    pureField,
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
    read() {
      syncVisibility();
      return {
        id: inputs.id.value,
        text: inputs.text.value,
        options: inputs.options.value,
        mechanism: inputs.mechanism.value,
        epsilon: inputs.epsilon.value,
        reportedOptions: inputs.reportedOptions.value,
        pureNegative: inputs.pureNegative.checked,
        type: inputs.type.value,
        low: inputs.low.value,
        high: inputs.high.value,
        unit: inputs.unit.value,
        numericMechanism: inputs.numericMechanism.value,
        window: inputs.window.value,
        values: inputs.values.value,
        windowMode: inputs.windowMode.value,
        uniformProbability: inputs.uniformProbability.value,
      };
    },
    // Live feedback: this question's budget and the advisor for (k, epsilon, n).
    showFeedback(core, respondents) {
      const values = this.read();
      if (values.type === 'numeric') {
        showWarning(showNumericFeedback(core, values, privacy));
        adviceInputs = '';
        replaceChildren(advice, []);
        return;
      }
      // The shared parser: "1,5" is 1.5, and text that is not a number is no epsilon (its field says why).
      const epsilon = values.mechanism === 'negative' && values.pureNegative ? null : decimalOrUndefined(values.epsilon);
      privacy.className = 'question-privacy';  // a numeric question's error style may linger after a type change
      setText(privacy, `This question: ${epsilonLabel(epsilon)}`);
      showWarning(epsilon);
      if (epsilon === undefined) {
        adviceInputs = '';
        replaceChildren(advice, []);
        return;
      }
      const optionCount = splitOptions(values.options).length;
      // Rebuild the table only when its inputs change (keeps focus on its button).
      const inputsKey = JSON.stringify([optionCount, epsilon, respondents, this.index, values.mechanism]);
      if (inputsKey === adviceInputs) return;
      adviceInputs = inputsKey;
      replaceChildren(advice, adviceFor(core, { optionCount, epsilon, respondents, current: values.mechanism }, this.index, (name) => {
        inputs.mechanism.value = name;
        inputs.mechanism.dispatchEvent(new Event('change', { bubbles: true }));
        inputs.mechanism.focus();  // the button that had focus is gone with the old table
      }));
    },
  };

  function syncVisibility() {
    const numeric = inputs.type.value === 'numeric';
    const rvns = numeric && inputs.numericMechanism.value === 'rvns';
    const negative = !numeric && inputs.mechanism.value === 'negative';
    negativeOnly.forEach((node) => { node.hidden = !negative; });
    optionsField.hidden = numeric;
    mechanismField.hidden = numeric;
    numericFields.element.hidden = !numeric;
    numericFields.rvnsOnly.hidden = !rvns;
    epsilonField.hidden = rvns;
    const noEpsilon = negative && inputs.pureNegative.checked;
    if (inputs.epsilon.disabled !== noEpsilon) {
      inputs.epsilon.disabled = noEpsilon;
      epsilonMessage.update();  // a disabled field shows no message; an enabled one is checked again
    }
  }
  const epsilonMessage = numberMessages.get(inputs.epsilon);

  syncVisibility();
  return editor;
}

function createNumericInputs(fieldId, initial) {
  const number = (name, value, attributes = {}) => numberInput({ id: fieldId(name), value, testid: `question-${name}`, ...attributes });
  return {
    low: number('low', initial.low ?? '0'),
    high: number('high', initial.high ?? '100'),
    unit: el('input', { id: fieldId('unit'), type: 'text', value: initial.unit ?? '', autocomplete: 'off', testid: 'question-unit' }),
    numericMechanism: el('select', { id: fieldId('numeric-mechanism'), testid: 'question-numeric-mechanism' },
      NUMERIC_MECHANISMS.map(([value, label]) => el('option', { value, text: label }))),
    window: number('window', initial.window ?? '10'),
    values: number('values', initial.values ?? '2', { whole: true }),
    windowMode: el('select', { id: fieldId('window-mode'), testid: 'question-window-mode' }, [
      el('option', { value: 'shared', text: 'Shared by all k (paper)' }),
      el('option', { value: 'fresh', text: 'Fresh for each value' }),
    ]),
    uniformProbability: number('uniform-probability', initial.uniformProbability ?? '0.25'),
  };
}

function createNumericFields(inputs) {
  const rvnsOnly = el('div', { class: 'rvns-fields' }, [
    el('div', { class: 'field-row' }, [
      field(inputs.window, 'Window width d', 'Each reported value avoids a window this wide around the answer; at most half the range.'),
      field(inputs.values, 'Values per report k'),
    ]),
    el('div', { class: 'field-row' }, [
      field(inputs.windowMode, 'Window'),
      field(inputs.uniformProbability, 'Uniform probability γ', '0 = published RVNS, no formal ε. Above 0, each value is drawn from the whole range with probability γ, which bounds ε.'),
    ]),
  ]);
  const element = el('div', { class: 'numeric-fields' }, [
    el('div', { class: 'field-row' }, [
      field(inputs.low, 'Lowest answer'),
      field(inputs.high, 'Highest answer'),
      field(inputs.unit, 'Unit (optional)', 'e.g. kg/m2, years'),
    ]),
    field(inputs.numericMechanism, 'Mechanism'),
    rvnsOnly,
  ]);
  return { element, rvnsOnly };
}

// The budget of a numeric question comes from the core (for RVNS it is a
// function of range, d, k, window mode and γ); its message explains errors.
// Returns that ε (null: no formal ε; undefined: the question is invalid).
function showNumericFeedback(core, values, privacy) {
  const question = buildQuestion({ ...values, id: values.id.trim() || 'q', text: values.text.trim() || 'q' });
  try {
    const parsed = core.parseSurvey({
      format: SURVEY_FORMAT, id: 'preview', version: 1, title: 'preview', description: '',
      results: 'public', access: 'open', questions: [question],
    });
    const epsilon = parsed.questions[0].epsilon;
    privacy.className = 'question-privacy';
    setText(privacy, `This question: ${epsilon === null ? `${formatEpsilon(null)} (the published RVNS: values avoid a window around the answer, but no ε bounds what a report reveals)` : formatEpsilon(epsilon)}`);
    return epsilon;
  } catch (error) {
    privacy.className = 'question-privacy notice notice-error';
    // The check ran on a one-question survey: its "questions[0]." prefix would misname this question.
    setText(privacy, `This question: ${error.message.replace(/^questions\[0\]\.?\s*/, '')}`);
    return undefined;
  }
}

// Each number field's message slot (shared/number-input.js), by input.
const numberMessages = new WeakMap();

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

// `epsilon`: a number, null (no formal ε) or undefined (the field is not a number).
function epsilonLabel(epsilon) {
  if (epsilon === null) return `${formatEpsilon(null)} (a reported option is never the true answer, but no ε bounds what a report reveals)`;
  if (epsilon === undefined) return 'enter a privacy budget ε';
  return formatEpsilon(epsilon);
}

function adviceFor(core, { optionCount, epsilon, respondents, current }, index, useMechanism) {
  if (epsilon === null) {
    return el('p', { class: 'hint', text: 'The advisor compares mechanisms at a finite ε; untick “No epsilon” to see it.' });
  }
  let advice;
  try {
    advice = core.advise(optionCount, epsilon, respondents);
  } catch (error) {
    return el('p', { class: 'hint', testid: `advice-error-${index}`, text: `Advisor: ${error.message}` });
  }
  if (advice.recommended === current) return renderAdvice(advice, index);
  const use = el('button', { type: 'button', class: 'button button-small', testid: `use-recommended-${index}`, text: `Use ${mechanismShortName(advice.recommended)}` });
  use.addEventListener('click', () => useMechanism(advice.recommended));
  return [renderAdvice(advice, index), use];
}
