// The survey page's part of a model question: nothing to answer (its
// fieldset only says in plain words what the model does with the answers to
// its variables, with the terms behind a disclosure); its answer, built from
// the answers already read for those earlier questions; its randomised report
// in words; and what the page needs to renew a report when the model has
// moved on to its next round.
//
// The answer ({features, target}, raw answers in their questions' units) is
// handed to the core only, with the model's public state added by the page
// (survey/main.js): it is never sent or stored. What is sent is
// {round, component, value}: one noisy component of the gradient.
import { richText } from '../../shared/rich-text.js';
import { el } from '../../shared/dom.js';
import { formatDecimal, formatEpsilon, formatNumber, mechanismShortName } from '../../shared/format.js';
import { t } from './survey-texts.js';

// The questions whose answers the model is built from, target first.
export function answersUsed(question) {
  return [question.target, ...question.features];
}

// "a, b and c" ("a, b et c" in French)
function listText(items) {
  if (items.length <= 1) return items.join('');
  return t('and', items.slice(0, -1).join(t('listSeparator')), items[items.length - 1]);
}

// "questions 3, 1 and 2", from the survey's questions (when the page gives them).
function questionNumbers(ids, questions) {
  if (!Array.isArray(questions)) return null;
  const numbers = ids.map((id) => questions.findIndex((candidate) => candidate.id === id) + 1);
  if (numbers.some((number) => number === 0)) return null;
  return numbers.length === 1 ? t('questionOne', String(numbers[0])) : t('questionMany', listText(numbers.map(String)));
}

// The coefficient a component stands for: the intercept, then one per feature.
export function componentName(question, component) {
  return component === 0 ? t('intercept') : question.features[component - 1];
}

function mechanismName(question) {
  return mechanismShortName(question.mechanism ?? 'piecewise');
}

// The model as a formula: "pay ≈ b0 + b1 × age + b2 × hours".
function formulaText(question) {
  return `${question.target} ≈ b0 + ${question.features.map((feature, index) => `b${index + 1} × ${feature}`).join(' + ')}`;
}

// The model's fieldset: its text and what it does, no inputs. The page's
// generic parts add "(optional)" and the skip choice to an optional model.
export function renderFieldset(question, index, questions) {
  const variables = answersUsed(question);
  const numbers = questionNumbers(variables, questions);
  const epsilon = formatNumber(question.epsilon);
  return el('fieldset', { class: 'question question-model', testid: `question-${question.id}`, dataset: { questionId: question.id } }, [
    el('legend', {}, [el('span', { class: 'question-number', text: `${index + 1}.` }), ' ', richText(question.text)]),
    el('p', {
      testid: `model-explanation-${question.id}`,
      text: t('explanation', listText(variables), numbers ?? '', question.target),
    }),
    el('p', { class: 'hint', testid: `model-hint-${question.id}`, text: t('hint') }),
    el('details', { class: 'report-details', testid: `model-details-${question.id}` }, [
      el('summary', { text: t('detailsSummary') }),
      el('ul', {}, [
        t('detailsModel', formulaText(question)),
        t('detailsRounds', question.batch ? formatNumber(question.batch) : '', formatNumber(question.clip ?? 1), mechanismName(question), epsilon),
        t('detailsPrivacy', formatEpsilon(question.epsilon)),
      ].map((text) => el('li', { text }))),
    ]),
  ]);
}

// {features: [answers to the features], target: answer to the target} from
// the answers already read for the model's variables (earlier questions), or
// null when one is missing (the page then asks for it, or skips an optional
// model). The model's state is added by the page.
export function readAnswer(form, question, index, answersSoFar) {
  const value = (id) => answersSoFar?.[id];
  const target = value(question.target);
  const features = question.features.map(value);
  if (typeof target !== 'number' || features.some((feature) => typeof feature !== 'number')) return null;
  return { features, target };
}

// Added to "Please answer every question" when a model cannot be answered
// (one of its variables skipped or unanswered).
export function unansweredHint(question, questions) {
  const numbers = questionNumbers(answersUsed(question), questions);
  return numbers
    ? t('unansweredNumbers', question.text, numbers)
    : t('unansweredVariables', question.text, listText(answersUsed(question)));
}

// A model always has an ε; the survey page asks every kind for this, so it is here for completeness.
export function noEpsilonExplanation() {
  return t('noEpsilon');
}

// For "Check your answers": there is nothing to answer; the model's answer
// is built from the answers to its questions, shown on their own rows.
export function answerInWords() {
  return t('answerInWords');
}

// Whether a prepared response still fits the model's current state: a model
// report is for one round, and the server refuses it once that round closes.
// Once the model is complete (all its rounds done) only null fits: nothing is sent for it.
export function fitsState(response, state) {
  if (state?.complete === true) return response === null;
  return response?.round === state?.round;
}

// Said to the respondent when the page made a new report for a model that
// moved on to its next round: `response` is the new one.
// `response` null: the model completed its rounds meanwhile, nothing is sent for it.
export function renewedNote(question, response) {
  if (response === null) return t('renewedComplete', question.text);
  return t('renewed', question.text, String(response.round));
}

// A perturbed response in human terms: {label, values, explanation, details}.
// `response` is the wire form {round, component, value}.
// null: the model had done all its rounds (its state said "complete").
export function describeResponse(question, response, summary) {
  if (response === null) return { label: t('label'), values: [t('valueComplete')], explanation: t('explanationComplete') };
  // A held-out round's report: the squared error of the final model at the answers ("holdout").
  if (response && Object.hasOwn(response, 'squared_error')) {
    const round = String(response.round);
    return {
      label: t('label'),
      values: [t('valueScore', round, formatDecimal(response.squared_error, 2))],
      explanation: t('explanationScore'),
      details: { summary: t('technicalDetails'), items: [t('detailsScore', round, question.target, mechanismName(question), formatEpsilon(question.epsilon), String(response.squared_error))] },
    };
  }
  const components = summary?.components ?? question.features.length + 1;
  if (!Number.isInteger(response?.component) || response.component < 0 || response.component >= components) {
    throw new Error(t('badComponent', question.id, JSON.stringify(response?.component) ?? 'undefined', components));
  }
  const name = componentName(question, response.component);
  const clip = formatNumber(question.clip ?? 1);
  const round = String(response.round);
  const value = formatDecimal(response.value, 2);
  return {
    label: t('label'),
    // In plain words: the intercept is the model's base value.
    values: [response.component === 0 ? t('valueBase', round, value) : t('valueFeature', round, name, value)],
    explanation: t('explanationReport'),
    details: {
      summary: t('technicalDetails'),
      items: [
        t('detailsRound', round, summary?.batch ? formatNumber(summary.batch) : ''),
        t('detailsComponent', response.component, name, components, question.target, clip),
        t('detailsNoise', mechanismName(question), formatEpsilon(question.epsilon), String(response.value)),
      ],
    },
  };
}
