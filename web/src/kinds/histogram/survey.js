// The survey page's part of a histogram question: a slider and a typed
// number, reading the typed answer, and its randomised report in words.
import {
  formatAsGiven, formatNumber, formatPercentSignificant, formatSignificant, mechanismLabel, withUnit,
} from '../../shared/format.js';
import { RANGE_UNANSWERED_HINT, readRangeAnswer, renderRangeFieldset } from '../../shared/range-answer.js';
import { edgeFormatter, markedRuns, rangeText } from './ranges.js';
import { reportedRanges } from './report-ranges.js';
import { t } from './survey-texts.js';

// Probabilities in words, in the page's locale: "50%", "4.7%", "0.02%"; and as numbers: "0.5", "0.04743".
const percent = (value) => formatPercentSignificant(value, 2);
const probability = (value) => formatSignificant(value, 4);

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
  return t('noEpsilon');
}

// What is sent, in plain words, with the core's chances (`summary`: p and q
// of the question's page summary), for the page's privacy summary.
export function privacyInWords(question, summary) {
  const { p, q } = summary ?? {};
  if (typeof p !== 'number' || typeof q !== 'number') return null;
  return t('privacyWords', percent(p), percent(q));
}

// The answer itself in words ("37 years"), for a question answered in
// confidence, whose report carries the typed number as given (central/survey.js).
// Every digit typed is shown (the number is sent as it is).
export function answerInWords(question, value) {
  return withUnit(formatAsGiven(value), question.unit ?? '');
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
    label: runs.length === 1 ? t('labelOne') : t('labelMany'),
    values: runs.map(([first, last]) => rangeText(report.ranges[first][0], report.ranges[last][1], format, unit)),
    explanation: plainExplanation(question, shown, report.level, summary, format),
    note: marked > runs.length ? t('joined', marked, shown) : null,
    details: technicalDetails(question, report, summary),
  };
}

// What the marks mean, without symbols: how often a range is marked when it
// holds the answer and when it does not.
function plainExplanation(question, ranges, level, { p, q }, format) {
  const whole = rangeText(question.range[0], question.range[1], format, question.unit ?? '');
  return level
    ? t('explanationLevels', whole, ranges, level.height, percent(p), percent(q))
    : t('explanation', whole, ranges, percent(p), percent(q));
}

// For readers who want the mechanism's terms (behind a disclosure).
function technicalDetails(question, { bits, ranges, level }, { p, q }) {
  const { epsilon } = question.mechanism;
  const ones = bits.filter((bit) => bit === 1).length;
  const padding = ranges.filter((range) => range === null).length;
  const layout = level
    ? t('detailsTree', level.level, level.height, level.fanout, bits.length, ones)
    : t('detailsFlat', bits.length, ones);
  const paddingText = padding > 0 ? ` ${t('detailsPadding', padding)}` : '';
  return {
    summary: t('technicalDetails'),
    items: [
      t('detailsMechanism', mechanismLabel(question.mechanism), formatNumber(epsilon)),
      t('detailsChances', probability(p), probability(q)),
      `${layout}${paddingText}`,
    ],
  };
}
