// The survey page's part of a histogram question: a slider and a typed
// number, reading the typed answer, and its randomised report in words.
import { formatNumber, mechanismLabel, withUnit } from '../../shared/format.js';
import { RANGE_UNANSWERED_HINT, readRangeAnswer, renderRangeFieldset } from '../../shared/range-answer.js';
import { edgeFormatter, markedRuns, rangeText } from './ranges.js';
import { reportedRanges } from './report-ranges.js';

// Probabilities in words: "50%", "4.7%", "0.02%"; and as numbers: "0.5", "0.04743".
const PERCENT = new Intl.NumberFormat('en', { style: 'percent', maximumSignificantDigits: 2 });
const PROBABILITY = new Intl.NumberFormat('en', { maximumSignificantDigits: 4 });

// Asked like a numeric question: a number in the range, with a slider and a
// typed field, unanswered until the respondent touches either
// (shared/range-answer.js). The core places it in its range's cell.
export function renderFieldset(question, index) {
  return renderRangeFieldset(question, index, 'question-histogram');
}

// The typed value when it is a number in the range, else null (unanswered; a
// refused text shows its message next to the field).
export function readAnswer(form, question, index) {
  return readRangeAnswer(form, index);
}

// Added to "Please answer every question" when such a question is unanswered.
export const unansweredHint = RANGE_UNANSWERED_HINT;

// A histogram question always has an ε (SUE, OUE and the tree take one);
// the survey page asks every kind for this, so it is here for completeness.
export function noEpsilonExplanation() {
  return 'each range is marked yes or no at random, more often for your own range; no ε bounds what that reveals.';
}

// The answer itself in words ("37 years"), for a question answered in
// confidence, whose report carries the typed number as given (survey/confidential.js).
// Every digit typed is shown (the number is sent as it is).
const AS_GIVEN = new Intl.NumberFormat('en', { maximumFractionDigits: 12 });
export function answerInWords(question, value) {
  return withUnit(AS_GIVEN.format(value), question.unit ?? '');
}

// A perturbed response in human terms: {label, values, explanation, note,
// details}. `response` is the report's wire form (report-ranges.js);
// `summary` the core's page summary of the question (parseSurvey): its fine
// edges, p (your own range marked), q (each other range marked) and the tree.
// Neighbouring marked ranges are joined, so that even a report over
// thousands of ranges lists a few; the page scrolls a long list.
export function describeResponse(question, response, summary) {
  const report = reportedRanges(response, summary);
  const format = edgeFormatter(summary.fine_edges, question.range);
  const unit = question.unit ?? '';
  // Padding bits (no range) are never shown as marked ranges.
  const runs = markedRuns(report.bits.map((bit, index) => (report.ranges[index] ? bit : 0)));
  const marked = report.bits.filter((bit, index) => bit === 1 && report.ranges[index]).length;
  const shown = report.ranges.filter(Boolean).length;
  return {
    label: runs.length === 1 ? 'Range your report marks' : 'Ranges your report marks',
    values: runs.map(([first, last]) => rangeText(report.ranges[first][0], report.ranges[last][1], format, unit)),
    explanation: plainExplanation(question, shown, report.level, summary, format),
    note: marked > runs.length ? `Marked ranges that touch are shown joined: ${marked} of the ${shown} ranges are marked.` : null,
    details: technicalDetails(question, report, summary),
  };
}

// What the marks mean, without symbols: how often a range is marked when it
// holds the answer and when it does not.
function plainExplanation(question, ranges, level, { p, q }, format) {
  const whole = rangeText(question.range[0], question.range[1], format, question.unit ?? '');
  const detail = level ? ` (one of ${level.height} levels of detail, picked at random for this report)` : '';
  return `The range ${whole} is split into ${ranges} smaller ranges${detail}, and your report marks each one yes or no at random: ` +
    `your own range is marked ${PERCENT.format(p)} of the time; each other range ${PERCENT.format(q)} of the time. ` +
    'So a marked range may not be yours, and yours may be unmarked.';
}

// For readers who want the mechanism's terms (behind a disclosure).
function technicalDetails(question, { bits, ranges, level }, { p, q }) {
  const { epsilon } = question.mechanism;
  const ones = bits.filter((bit) => bit === 1).length;
  const padding = ranges.filter((range) => range === null).length;
  const layout = level
    ? `The report is level ${level.level} of ${level.height} of a tree with fan-out ${level.fanout}: ${bits.length} bits, one per range of that level in order from the lowest`
    : `The report is ${bits.length} bits, one per range in order from the lowest`;
  const paddingText = padding > 0 ? ` The last ${padding} stand for no values: padding that completes the tree.` : '';
  return {
    summary: 'Technical details',
    items: [
      `Mechanism: ${mechanismLabel(question.mechanism)}, ε = ${formatNumber(epsilon)}.`,
      `p = ${PROBABILITY.format(p)}: the chance your own range's bit is 1; q = ${PROBABILITY.format(q)}: the chance each other range's bit is 1.`,
      `${layout}; ${ones} of them ${ones === 1 ? 'is' : 'are'} 1.${paddingText}`,
    ],
  };
}
