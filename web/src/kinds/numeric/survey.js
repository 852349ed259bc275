// The survey page's part of a numeric question: a slider and a typed number,
// reading the typed answer, and its randomised report in words.
import { decimalsForStep, formatDecimal, formatNumber, withUnit } from '../../shared/format.js';
import { stepForRange } from '../../shared/numeric-step.js';
import { RANGE_UNANSWERED_HINT, readRangeAnswer, renderRangeFieldset } from '../../shared/range-answer.js';
import { levelsDetails } from './levels.js';
import { describeLevelsResponse } from './levels-report.js';

// A numeric question: a slider and a typed number kept in sync, unanswered
// until the respondent touches either (shared/range-answer.js).
export function renderFieldset(question, index) {
  return renderRangeFieldset(question, index, 'question-numeric');
}

// The typed value when it is a number in the range (and on the question's
// step), else null (unanswered; a refused text shows its message by the field).
export function readAnswer(form, question, index) {
  return readRangeAnswer(form, index);
}

// Added to "Please answer every question" when such a question is unanswered.
export const unansweredHint = RANGE_UNANSWERED_HINT;

// The typed answer in words, with its unit ("37 years").
export function answerInWords(question, value) {
  return withUnit(formatNumber(value), question.unit ?? '');
}

// What is sent, in plain words.
export function privacyInWords(question) {
  const name = question.mechanism?.name;
  if (name === 'rvns') return 'a few numbers drawn at random from the range are sent instead of yours, none of them close to your answer.';
  if (name === 'square_wave') return 'one number drawn at random is sent instead of yours, more often close to your answer than far from it.';
  if (name === 'levels') return 'your answer’s range is sent only after randomising it, more strongly where you chose more privacy.';
  return 'your answer with random noise added is sent; on its own it says little, only averages over many people are meaningful.';
}

// Said to the respondent when the question's mechanism has no formal ε (the
// published RVNS); the core's note (for analysts) says the same in its terms.
export function noEpsilonExplanation() {
  return 'the values sent always avoid a hidden window around your answer, which hides it, but that gives no formal guarantee: no ε bounds what they reveal.';
}

// A perturbed response in human terms: {label, values, explanation, note}.
// Reported numbers are shown to the slider's precision, with the unit once
// at the end ("31.2, 18.9 kg/m2"); the JSON below shows them exactly. A
// levels report is one of a few values, each a range and a direction: it is
// shown as those (levels-report.js), from the core's `summary`.
export function describeResponse(question, values, summary) {
  const levels = levelsDetails(summary);
  if (levels) return describeLevelsResponse(question, values, levels);
  const [low, high] = question.range;
  const decimals = decimalsForStep(stepForRange(low, high));
  const texts = values.map((value) => formatDecimal(value, decimals));
  if (texts.length > 0 && question.unit) texts[texts.length - 1] = withUnit(texts[texts.length - 1], question.unit);
  return {
    label: values.length === 1 ? 'Value reported instead of yours' : 'Values reported instead of yours',
    values: texts,
    explanation: numericExplanation(question.mechanism),
    note: question.mechanism.name === 'rvns' ? rvnsWindowNote(question.mechanism, question.unit) : null,
  };
}

function numericExplanation(mechanism) {
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
