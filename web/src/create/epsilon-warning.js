import { formatNumber } from '../shared/format.js';

// The builder's plain-words warning for a large privacy budget. ε bounds how
// much more likely a report is under one answer than under another: at most
// e^ε times. Above 4 (e^4 ≈ 55) a report says a lot about the answer.
export const LARGE_EPSILON = 4;

const RATIO = new Intl.NumberFormat('en', { maximumSignificantDigits: 3 });
const BIG_RATIO = new Intl.NumberFormat('en', { notation: 'compact', compactDisplay: 'long', maximumSignificantDigits: 3 });

// "148", "2,980", "10.7 trillion": e^ε in words a reader can weigh.
export function likelihoodRatioText(epsilon) {
  const ratio = Math.exp(epsilon);
  if (!Number.isFinite(ratio) || ratio >= 1e15) return 'more than a million billion';
  return ratio < 1e6 ? RATIO.format(ratio) : BIG_RATIO.format(ratio);
}

// The warning for `epsilon` (a number, or null / undefined: none), or null
// when it is not large. `scope` is 'question', 'central' (a question
// answered in confidence: its publication budget) or 'survey'.
export function largeEpsilonWarning(epsilon, scope) {
  if (typeof epsilon !== 'number' || !(epsilon > LARGE_EPSILON)) return null;
  const e = formatNumber(epsilon);
  const ratio = likelihoodRatioText(epsilon);
  if (scope === 'survey') {
    return `The whole survey’s ε = ${e} is large: a respondent’s complete report can be up to e^${e} ≈ ${ratio} times ` +
      'more likely under one set of answers than under another, so together the questions hide little. ' +
      'Lower some questions’ ε, or ask fewer questions.';
  }
  if (scope === 'central') {
    return `A publication budget of ε = ${e} is large: together, the releases can make one respondent’s answer up to e^${e} ≈ ${ratio} times ` +
      'more likely than another, so they hide little. A budget of 1 or less gives respondents real protection.';
  }
  return `ε = ${e} is large: a report can be up to e^${e} ≈ ${ratio} times more likely under one answer than under ` +
    'another, so the randomisation hides little. An ε of 1 or less gives respondents real deniability.';
}
