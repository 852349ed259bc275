// The survey page's part of a numeric question: a slider and a typed number,
// reading the typed answer, and its randomised report in words.
import {
  decimalsForStep, formatAsGiven, formatGrouped, formatEpsilon, formatNumber, formatPercentSignificant, mechanismLabel, withUnit,
} from '../../shared/format.js';
import { stepForRange } from '../../shared/numeric-step.js';
import { RANGE_UNANSWERED_HINT, readRangeAnswer, renderRangeFieldset } from '../../shared/range-answer.js';
import { t } from './survey-texts.js';

// The levels code (levels.js, levels-report.js, the histogram's range texts)
// describes a "levels" report: fetched only for a survey that has such a
// question (loadFor, before the page is drawn), as a chunk of its own.
let levelsCode = null;

export async function loadFor(question) {
  if (question.mechanism?.name === 'levels' && !levelsCode) {
    const [levels, report] = await Promise.all([import('./levels.js'), import('./levels-report.js')]);
    levelsCode = { levelsDetails: levels.levelsDetails, describeLevelsResponse: report.describeLevelsResponse };
  }
}

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

// The typed answer in words, with its unit ("37 years"): every digit typed
// (for a question answered in confidence the number is sent as it is).
export function answerInWords(question, value) {
  return withUnit(formatAsGiven(value), question.unit ?? '');
}

// What is sent, in plain words.
export function privacyInWords(question) {
  const name = question.mechanism?.name;
  if (name === 'rvns') return t('rvnsWords');
  if (name === 'square_wave') return t('squareWaveWords');
  if (name === 'levels') return t('levelsWords');
  return t('noiseWords');
}

// Said to the respondent when the question's mechanism has no formal ε (the
// published RVNS); the core's note (for analysts) says the same in its terms.
export function noEpsilonExplanation() {
  return t('noEpsilon');
}

// A perturbed response in human terms: {label, values, explanation, note,
// details}; the mechanism's terms (its name, ε, γ) only in `details`.
// Reported numbers are shown to the slider's precision, with the unit once
// at the end ("31.2, 18.9 kg/m2"); the JSON below shows them exactly. A
// levels report is one of a few values, each a range and a direction: it is
// shown as those (levels-report.js), from the core's `summary`.
export function describeResponse(question, values, summary) {
  const levels = levelsCode?.levelsDetails(summary);
  if (levels) return levelsCode.describeLevelsResponse(question, values, levels);
  const [low, high] = question.range;
  const decimals = decimalsForStep(stepForRange(low, high));
  const texts = values.map((value) => formatGrouped(value, decimals));
  if (texts.length > 0 && question.unit) texts[texts.length - 1] = withUnit(texts[texts.length - 1], question.unit);
  return {
    label: values.length === 1 ? t('valueLabel') : t('valuesLabel'),
    values: texts,
    explanation: numericExplanation(question.mechanism),
    note: question.mechanism.name === 'rvns' ? rvnsWindowNote(question.mechanism, question.unit) : null,
    details: technicalDetails(question, summary),
  };
}

// For readers who want the mechanism's terms: its name and ε (the core's,
// which for the RVNS follows from γ), and for the RVNS what bounds it.
function technicalDetails(question, summary) {
  const { mechanism } = question;
  const epsilon = typeof summary?.epsilon === 'number' ? summary.epsilon : (mechanism.epsilon ?? null);
  let window = null;
  if (mechanism.name === 'rvns') {
    window = mechanism.uniform_probability > 0 ? t('windowMixedItem', formatNumber(mechanism.uniform_probability)) : t('windowPublishedItem');
  }
  return {
    summary: t('technicalDetails'),
    items: [t('mechanismItem', mechanismLabel(mechanism), formatEpsilon(epsilon)), window].filter(Boolean),
  };
}

function numericExplanation(mechanism) {
  if (mechanism.name === 'rvns') return t('rvnsExplanation');
  if (mechanism.name === 'square_wave') return t('squareWaveExplanation');
  return t('noiseExplanation');
}

// The hidden window: a band of the given width that contains the true answer,
// at a random offset the respondent never sees. How often a value ignores it
// (γ) is said as a percentage; γ itself is in the technical details.
function rvnsWindowNote(mechanism, unit) {
  const width = withUnit(formatNumber(mechanism.window), unit);
  if (mechanism.uniform_probability > 0) {
    return t('windowMixedNote', width, formatPercentSignificant(mechanism.uniform_probability, 2));
  }
  return t('windowNote', width);
}
