// The creation page's part of a categorical question: its label in the type
// selector, its fields in a question editor (options, mechanism, the
// negative survey's reported options), its live budget and the advisor's
// comparison of mechanisms, and its part of the definition.
import { el } from '../../shared/dom.js';
import { formatEpsilon, mechanismShortName } from '../../shared/format.js';
import { decimalOrUndefined, definitionNumber, numberInput } from '../../shared/number-input.js';
import { renderAdvice } from './advisor-table.js';
import { createPowerAnalysis } from './power-analysis.js';

export const label = 'Choice among options';

// May be answered in confidence (central: "privacy": "central", a budget, no
// mechanism); the question editor then offers "Who sees the answer".
export const supportsConfidential = true;

// May be asked openly ("privacy": "open", no mechanism: a demographic or a
// stratum to break results down by); the question editor then offers it.
export const supportsOpen = true;

// How many different answers an open question of this kind has (the builder
// multiplies them: the combinations that can single a person out).
export function openAnswerCount(question) {
  return question.options?.length ?? 0;
}

const MECHANISMS = [
  ['grr', 'GRR (randomised response)'],
  ['oue', 'OUE (optimised unary)'],
  ['sue', 'SUE (symmetric unary)'],
  ['negative', 'Negative survey'],
];

function splitOptions(text) {
  return text.split('\n').map((line) => line.trim()).filter((line) => line.length > 0);
}

// The kind's fields in one question editor. `field(input, label, hint)` lays
// out a labelled field; `epsilon` is the editor's privacy budget field
// ({field, input, setDisabled}), which this kind places next to its mechanism.
export function createEditor({ fieldId, initial, field, epsilon }) {
  const inputs = {
    options: el('textarea', { id: fieldId('options'), rows: '5', testid: 'question-options' }),
    mechanism: el('select', { id: fieldId('mechanism'), testid: 'question-mechanism' },
      MECHANISMS.map(([value, text]) => el('option', { value, text, selected: value === (initial.mechanism ?? MECHANISMS[0][0]) }))),
    reportedOptions: numberInput({ id: fieldId('reported'), value: initial.reportedOptions ?? '1', whole: true, testid: 'question-reported-options' }),
    pureNegative: el('input', { id: fieldId('pure'), type: 'checkbox', checked: initial.pureNegative === true, testid: 'question-pure-negative' }),
  };
  inputs.options.value = initial.options ?? 'Yes\nNo';
  const reportedField = field(inputs.reportedOptions, 'Reported options (s)', 'How many options each respondent reports as not theirs.');
  const pureField = el('div', { class: 'field field-checkbox' }, [inputs.pureNegative,
    el('label', { for: inputs.pureNegative.id, text: 'No epsilon (pure negative survey)' })]);
  const optionsField = field(inputs.options, 'Options, one per line');
  // The core's objection to the options (e.g. two equal up to letter case), live next to them.
  const optionsError = el('p', { class: 'field-error', id: fieldId('options-error'), hidden: true, testid: 'question-options-error' });
  optionsField.append(optionsError);
  const showOptionsError = (message) => {
    optionsError.textContent = message ?? '';
    optionsError.hidden = !message;
    if (message) inputs.options.setAttribute('aria-invalid', 'true');
    else inputs.options.removeAttribute('aria-invalid');
  };
  inputs.options.setAttribute('aria-describedby', optionsError.id);
  const mechanismField = field(inputs.mechanism, 'Mechanism');
  const power = createPowerAnalysis(fieldId);
  const mechanismRow = el('div', { class: 'field-row' }, [mechanismField, reportedField]);

  const useMechanism = (name) => {
    inputs.mechanism.value = name;
    inputs.mechanism.dispatchEvent(new Event('change', { bubbles: true }));
    inputs.mechanism.focus();  // the button that had focus is gone with the old table
  };

  return {
    nodes: [optionsField, mechanismRow, pureField],
    // ε sits between the mechanism and the reported options.
    activate() {
      mechanismRow.insertBefore(epsilon.field, reportedField);
    },
    sync() {
      const negative = inputs.mechanism.value === 'negative';
      reportedField.hidden = !negative;
      pureField.hidden = !negative;
      epsilon.field.hidden = false;
      epsilon.setDisabled(negative && inputs.pureNegative.checked);
    },
    // Answered in confidence: no mechanism, so none of its fields (ε among them).
    setConfidential(central) {
      mechanismRow.hidden = central;
      if (central) pureField.hidden = true;
    },
    // Asked openly: no mechanism either (called after setConfidential).
    setOpen(open) {
      if (!open) return;
      mechanismRow.hidden = true;
      pureField.hidden = true;
    },
    read() {
      return {
        options: inputs.options.value,
        mechanism: inputs.mechanism.value,
        reportedOptions: inputs.reportedOptions.value,
        pureNegative: inputs.pureNegative.checked,
      };
    },
    // Live feedback: the budget, and the advisor for (k, ε, n). The advice
    // is rebuilt only when its key changes (keeps focus on its button).
    feedback(core, { values, respondents, index, check }) {
      const checked = check();
      showOptionsError(!checked.ok && /option/i.test(checked.message) ? checked.message : null);
      // The shared parser: "1,5" is 1.5, and text that is not a number is no epsilon (its field says why).
      const epsilonValue = values.mechanism === 'negative' && values.pureNegative ? null : decimalOrUndefined(values.epsilon);
      const result = { epsilon: epsilonValue, privacy: epsilonLabel(epsilonValue) };
      if (epsilonValue === undefined) return result;
      const optionCount = splitOptions(values.options).length;
      // Beside the advisor: the respondents two groups need (for the question as checked).
      if (checked.ok) power.update(core, checked.definition, checked.definition.questions[0].id);
      return {
        ...result,
        adviceKey: JSON.stringify([optionCount, epsilonValue, respondents, index, values.mechanism, checked.ok]),
        advice: () => [adviceFor(core, { optionCount, epsilon: epsilonValue, respondents, current: values.mechanism }, index, useMechanism),
          checked.ok ? power.element : null],
      };
    },
  };
}

// The editor's values of a question of a survey's definition (for a new
// version made as a copy): the inverse of buildDefinition.
export function editorValues(question) {
  const mechanism = question.mechanism ?? {};
  return {
    options: (question.options ?? []).join('\n'),
    mechanism: mechanism.name,
    epsilon: mechanism.epsilon === undefined ? undefined : String(mechanism.epsilon),
    reportedOptions: mechanism.reported_options === undefined ? undefined : String(mechanism.reported_options),
    pureNegative: mechanism.name === 'negative' && mechanism.epsilon === undefined,
  };
}

// The kind's part of the definition (after id, text and type).
export function buildDefinition(values) {
  return { options: splitOptions(values.options), mechanism: buildMechanism(values) };
}

function buildMechanism(values) {
  const mechanism = { name: values.mechanism };
  if (values.mechanism === 'negative') {
    if (!values.pureNegative) mechanism.epsilon = definitionNumber(values.epsilon);
    mechanism.reported_options = definitionNumber(values.reportedOptions, true);
  } else {
    mechanism.epsilon = definitionNumber(values.epsilon);
  }
  return mechanism;
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
