// A "levels" report in the respondent's words: the one number sent names a
// range of answers (a privacy level: one or more intervals) and a direction
// (towards the top or the bottom of the whole range). The main text says what
// was reported and how often each part tells the truth, without symbols; the
// mechanism's terms, its exact ε and the paper's smaller claim (which does
// not hold) sit behind the report panel's "Technical details" disclosure.
import { formatNumber, mechanismLabel, withUnit } from '../../shared/format.js';
import { levelNumbered, levelRangesText, levelsFormatter, reportOf } from './levels.js';

// Probabilities in words ("73%", "4.7%") and as numbers ("0.7311").
const PERCENT = new Intl.NumberFormat('en', { style: 'percent', maximumSignificantDigits: 2 });
const PROBABILITY = new Intl.NumberFormat('en', { maximumSignificantDigits: 4 });

// {label, values, more, explanation, note, details} for report-panel.js;
// `details` is the core's description of the mechanism (levels.js).
export function describeLevelsResponse(question, values, details) {
  const unit = question.unit ?? '';
  const format = levelsFormatter(details, question.range);
  const report = reportOf(details, values[0]);
  if (!report) {
    // Cannot happen with the core's own report; said rather than guessed.
    return { label: 'Value reported', values: [String(values[0])], explanation: 'This value names no range and direction of this question.', note: null };
  }
  const level = levelNumbered(details, report.level);
  const [low, high] = question.range;
  const top = report.bit > 0;
  return {
    label: level.intervals.length > 1 ? 'Ranges reported' : 'Range reported',
    values: [levelRangesText(level, format, unit)],
    more: [{
      label: 'Direction reported',
      value: top ? `towards the top of the whole range (${withUnit(format(high), unit)})` : `towards the bottom of the whole range (${withUnit(format(low), unit)})`,
      testid: `report-direction-${question.id}`,
    }],
    explanation: plainExplanation(details, level),
    note: keptNote(details, format, unit),
    details: technicalDetails(question, details, report),
  };
}

// How often each part tells the truth, in percentages.
function plainExplanation(details, reportedLevel) {
  const reversed = PERCENT.format(1 - reportedLevel.bit_kept);
  const direction = 'The direction leans towards where your answer lies: the higher your answer, the more often it says “towards the top” ' +
    `(always at the very top, half the time in the middle, never at the very bottom); it is then reversed ${reversed} of the time for the range reported.`;
  if (details.levels.length === 1) return `The whole range is one range, so it says nothing about your answer. ${direction}`;
  const kept = details.levels.map((level) => level.level_kept);
  const same = kept.every((value) => PERCENT.format(value) === PERCENT.format(kept[0]));
  const truth = same
    ? `Your true range is reported ${PERCENT.format(kept[0])} of the time`
    : `Your true range is reported ${PERCENT.format(Math.min(...kept))} to ${PERCENT.format(Math.max(...kept))} of the time (depending on the range, see below)`;
  return `${truth}, otherwise another of the ${details.levels.length} ranges at random. So the range reported may not be yours. ${direction}`;
}

// When the ranges keep the truth at different rates, each one's rate.
function keptNote(details, format, unit) {
  if (details.levels.length === 1) return null;
  const kept = details.levels.map((level) => PERCENT.format(level.level_kept));
  if (kept.every((text) => text === kept[0])) return null;
  const parts = details.levels.map((level, index) => `${levelRangesText(level, format, unit)}: ${kept[index]}`);
  return `How often your true range is reported, by range (stricter ranges are reported truthfully less often): ${parts.join('; ')}.`;
}

// For readers who want the mechanism's terms: the exact ε first, the paper's
// claim only as a claim.
function technicalDetails(question, details, report) {
  const exact = formatNumber(details.exact_epsilon);
  const claimed = formatNumber(details.paper_claimed_epsilon);
  const variant = details.variant === 'bounded'
    ? `Bounded variant: the range is randomised at ε_t − ε_min and the direction at ε_min = ${formatNumber(Math.min(...details.levels.map((level) => level.epsilon)))}, so the paper’s statement holds for it; ε = ${exact} is exact.`
    : `The paper’s claim (not a guarantee): ε = ${claimed}. It bounds the range and the direction separately; sent together they reveal more, so ε = ${exact} is what holds.`;
  const perLevel = details.levels.map((level) =>
    `Level ${level.level} (ε = ${formatNumber(level.epsilon)}): ${level.intervals.map(intervalText).join(' and ')}; ` +
    `true level kept with probability ${PROBABILITY.format(level.level_kept)} (budget ${formatNumber(level.level_budget)}), ` +
    `direction kept with probability ${PROBABILITY.format(level.bit_kept)} (budget ${formatNumber(level.bit_budget)}).`);
  return {
    summary: 'Technical details',
    items: [
      `Mechanism: ${mechanismLabel(question.mechanism)}.`,
      `Exact ε = ${exact}: the report (range and direction together) is ε-LDP, and no smaller ε holds.`,
      variant,
      ...perLevel,
      `This report: the value ${report.value} stands for level ${report.level}, direction ${report.bit > 0 ? '+1' : '−1'} ` +
        `(one of ${details.reports.length} values). Before it is kept or reversed, the direction is +1 with probability (1 + v)/2, ` +
        'where v = 2(x − a)/(b − a) − 1 is the answer x’s position in the range [a, b].',
    ],
  };
}

// "[20000, 100000)": the exact interval, half-open except the last.
function intervalText({ low, high, closed_high: closedHigh }) {
  return `[${low}, ${high}${closedHigh ? ']' : ')'}`;
}
