// Puts a perturbed report into human terms, per question, so the respondent
// can read exactly what is about to be sent. This only reads the wire format
// (common.md "Report"); the randomisation itself happens in the core.
import { decimalsForStep, formatDecimal, formatNumber, withUnit } from '../shared/format.js';
import { stepForRange } from '../shared/numeric-step.js';

export function describeResponse(question, response) {
  if (question.type === 'numeric') return describeNumeric(question, response);
  const { name } = question.mechanism;
  if (name === 'grr') return describeGrr(question, response);
  if (name === 'oue' || name === 'sue') return describeUnary(question, response);
  if (name === 'negative') return describeNegative(question, response);
  throw new Error(`question ${question.id}: unknown mechanism "${name}"`);
}

function optionLabel(question, index) {
  const label = question.options[index];
  if (label === undefined) throw new Error(`question ${question.id}: option index ${index} is out of range`);
  return label;
}

function describeGrr(question, response) {
  return {
    label: 'Reported option',
    values: [optionLabel(question, response)],
    explanation: 'Your true option was kept with a set probability, otherwise replaced by another one at random.',
  };
}

function describeUnary(question, bits) {
  const values = bits.flatMap((bit, index) => (bit === 1 ? [optionLabel(question, index)] : []));
  return {
    label: 'Options reported as 1',
    values,
    explanation: 'Each option is sent as a yes/no bit, and every bit was randomly flipped with a set probability.',
  };
}

function describeNegative(question, indices) {
  return {
    label: 'Options reported as NOT yours',
    values: indices.map((index) => optionLabel(question, index)),
    explanation: 'These were picked at random among the options other than your answer.',
  };
}

// Reported numbers are shown to the slider's precision, with the unit once
// at the end ("31.2, 18.9 kg/m2"); the JSON below shows them exactly.
function describeNumeric(question, values) {
  const [low, high] = question.range;
  const decimals = decimalsForStep(stepForRange(low, high));
  const texts = values.map((value) => formatDecimal(value, decimals));
  if (texts.length > 0 && question.unit) texts[texts.length - 1] = withUnit(texts[texts.length - 1], question.unit);
  return {
    label: values.length === 1 ? 'Value reported instead of yours' : 'Values reported instead of yours',
    values: texts,
    explanation: numericExplanation(question.mechanism, question.unit),
    note: question.mechanism.name === 'rvns' ? rvnsWindowNote(question.mechanism, question.unit) : null,
  };
}

function numericExplanation(mechanism, unit) {
  if (mechanism.name === 'rvns') return 'These were drawn at random from the range, away from your answer.';
  if (mechanism.name === 'square_wave') return 'Drawn at random, more often close to your answer than far from it.';
  return 'Your answer plus random noise (it can fall outside the range); only averages over many reports are meaningful.';
}

// The hidden window: a band of the given width that contains the true answer,
// at a random offset the respondent never sees.
function rvnsWindowNote(mechanism, unit) {
  const width = withUnit(formatNumber(mechanism.window), unit);
  if (mechanism.uniform_probability > 0) {
    return `Each value avoids a hidden window ${width} wide around your answer, except that with probability ${formatNumber(mechanism.uniform_probability)} a value was drawn from the whole range instead (that is what bounds ε).`;
  }
  return `None of these values lies in the hidden window ${width} wide around your answer.`;
}

export function formatValues(values) {
  return values.length === 0 ? 'none' : values.join(', ');
}
