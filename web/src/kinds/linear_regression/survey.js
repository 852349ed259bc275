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

// The questions whose answers the model is built from, target first.
export function answersUsed(question) {
  return [question.target, ...question.features];
}

// "a, b and c"
function listText(items) {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

// "questions 3, 1 and 2", from the survey's questions (when the page gives them).
function questionNumbers(ids, questions) {
  if (!Array.isArray(questions)) return null;
  const numbers = ids.map((id) => questions.findIndex((candidate) => candidate.id === id) + 1);
  if (numbers.some((number) => number === 0)) return null;
  return `${numbers.length === 1 ? 'question' : 'questions'} ${listText(numbers.map(String))}`;
}

// The coefficient a component stands for: the intercept, then one per feature.
export function componentName(question, component) {
  return component === 0 ? 'intercept' : question.features[component - 1];
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
      text: `Your answers to ${listText(variables)}${numbers ? ` (${numbers})` : ''} also help train a model of ${question.target}. ` +
        'Your device computes how the current model should change for your answers, sends one of those numbers with random noise added, ' +
        `and the organisers only learn the average over many people. This spends ε = ${epsilon} more of your privacy budget.`,
    }),
    el('p', {
      class: 'hint', testid: `model-hint-${question.id}`,
      text: 'There is nothing to answer here. When you prepare your report, this page first fetches the model’s current state from the server ' +
        '(it is public, the same for everyone; nothing about you is sent). If you skip any of those questions, nothing is sent for the model either.',
    }),
    el('details', { class: 'report-details', testid: `model-details-${question.id}` }, [
      el('summary', { text: 'How the model is trained' }),
      el('ul', {}, [
        `The model: ${formulaText(question)}, each variable scaled to the range −1 to 1 by its question’s range.`,
        `It is trained in rounds${question.batch ? ` of ${formatNumber(question.batch)} respondents` : ''}: each respondent’s device computes the gradient of the squared error ` +
          `of the current model at their own answers, clips each component to ±${formatNumber(question.clip ?? 1)}, and sends one component, chosen at random ` +
          `(independently of the answers), perturbed by ${mechanismName(question)} at ε = ${epsilon}. When a round is complete the server averages each component and takes one gradient step.`,
        `Privacy: the model’s ${formatEpsilon(question.epsilon)} adds to the budgets of the questions it uses, which are also reported on their own.`,
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
  return `The model question “${question.text}” is built from your answers to ${numbers ?? listText(answersUsed(question))}: answer all of them (not skipped) to include it.`;
}

// A model always has an ε; the survey page asks every kind for this, so it is here for completeness.
export function noEpsilonExplanation() {
  return 'one number computed from your answers is sent with random noise; no ε bounds what it reveals.';
}

// Whether a prepared response still fits the model's current state: a model
// report is for one round, and the server refuses it once that round closes.
export function fitsState(response, state) {
  return response?.round === state?.round;
}

// Said to the respondent when the page made a new report for a model that
// moved on to its next round: `response` is the new one.
export function renewedNote(question, response) {
  return `The model “${question.text}” moved on to its next round before your report arrived, so the server could not accept ` +
    `the model’s part of it. Your device has made a new one for round ${response.round} from the same answers; the rest of your report is unchanged. ` +
    `Your first model report did reach the server, so sending this one spends the model’s privacy budget (${formatEpsilon(question.epsilon)}) once more.`;
}

// A perturbed response in human terms: {label, values, explanation, details}.
// `response` is the wire form {round, component, value}.
export function describeResponse(question, response, summary) {
  const components = summary?.components ?? question.features.length + 1;
  if (!Number.isInteger(response?.component) || response.component < 0 || response.component >= components) {
    throw new Error(`question ${question.id}: the report's component ${JSON.stringify(response?.component)} is not one of the model's ${components}`);
  }
  const name = componentName(question, response.component);
  const clip = formatNumber(question.clip ?? 1);
  return {
    label: 'Sent for the model',
    values: [`Round ${response.round}: one number, component '${name}', value ${formatDecimal(response.value, 2)} (noisy)`],
    explanation: 'Your device worked out how the model should change to fit your answers, kept one of those numbers (chosen at random, whatever your answers) ' +
      'and added random noise to it: on its own it says little; the organisers only use the average over many people.',
    details: {
      summary: 'Technical details',
      items: [
        `Round ${response.round}: the report counts only towards this round of training${summary?.batch ? ` (${formatNumber(summary.batch)} reports per round)` : ''}.`,
        `Component ${response.component} (${name}; the model has ${components}, numbered from 0, the intercept first): the gradient of (${question.target} − model)² at your answers, on the scaled variables, ` +
          `clipped to ±${clip} and divided by ${clip}. Which component is sent was drawn at random, independently of your answers.`,
        `Noise: ${mechanismName(question)} at ${formatEpsilon(question.epsilon)}; the value sent is exactly ${String(response.value)}, your component plus noise that is zero on average.`,
      ],
    },
  };
}
