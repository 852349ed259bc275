// A "levels" report in the respondent's words: the one number sent names a
// range of answers (a privacy level: one or more intervals) and a direction
// (towards the top or the bottom of the whole range). The main text says what
// was reported and how often each part tells the truth, without symbols; the
// mechanism's terms, its exact ε and the paper's smaller claim (which does
// not hold) sit behind the report panel's "Technical details" disclosure.
import { formatDecimal, formatNumber, formatPercentSignificant, formatSignificant, mechanismLabel, withUnit } from '../../shared/format.js';
import { levelNumbered, levelRangesText, levelsFormatter, reportOf } from './levels.js';
import { t } from './survey-texts.js';

// Probabilities in words ("73%", "4.7%", "4,7 %" in French) and as numbers ("0.7311"), in the page's locale.
const percent = (value) => formatPercentSignificant(value, 2);
const probability = (value) => formatSignificant(value, 4);

// {label, values, more, explanation, note, details} for report-panel.js;
// `details` is the core's description of the mechanism (levels.js).
export function describeLevelsResponse(question, values, details) {
  const unit = question.unit ?? '';
  const format = levelsFormatter(details, question.range);
  const report = reportOf(details, values[0]);
  if (!report) {
    // Cannot happen with the core's own report; said rather than guessed.
    return { label: t('unknownLabel'), values: [exactNumber(values[0])], explanation: t('unknownExplanation'), note: null };
  }
  const level = levelNumbered(details, report.level);
  const [low, high] = question.range;
  const top = report.bit > 0;
  return {
    label: level.intervals.length > 1 ? t('rangesLabel') : t('rangeLabel'),
    values: [levelRangesText(level, format, unit)],
    more: [{
      label: t('directionLabel'),
      value: top ? t('towardsTop', withUnit(format(high), unit)) : t('towardsBottom', withUnit(format(low), unit)),
      testid: `report-direction-${question.id}`,
    }],
    explanation: plainExplanation(details, level),
    note: keptNote(details, format, unit),
    details: technicalDetails(question, details, report),
  };
}

// How often each part tells the truth, in percentages.
function plainExplanation(details, reportedLevel) {
  const reversed = percent(1 - reportedLevel.bit_kept);
  const direction = t('direction', reversed);
  if (details.levels.length === 1) return `${t('oneRange')} ${direction}`;
  const kept = details.levels.map((level) => level.level_kept);
  const same = kept.every((value) => percent(value) === percent(kept[0]));
  const truth = same
    ? t('truthSame', percent(kept[0]))
    : t('truthSpread', percent(Math.min(...kept)), percent(Math.max(...kept)));
  return `${t('truthOtherwise', truth, formatNumber(details.levels.length))} ${direction}`;
}

// When the ranges keep the truth at different rates, each one's rate.
function keptNote(details, format, unit) {
  if (details.levels.length === 1) return null;
  const kept = details.levels.map((level) => percent(level.level_kept));
  if (kept.every((text) => text === kept[0])) return null;
  const parts = details.levels.map((level, index) => t('keptPart', levelRangesText(level, format, unit), kept[index]));
  return t('keptNote', parts.join(t('keptSeparator')));
}

// For readers who want the mechanism's terms: the exact ε first, the paper's
// claim only as a claim.
function technicalDetails(question, details, report) {
  const exact = formatNumber(details.exact_epsilon);
  const claimed = formatNumber(details.paper_claimed_epsilon);
  const variant = details.variant === 'bounded'
    ? t('boundedItem', formatNumber(Math.min(...details.levels.map((level) => level.epsilon))), exact)
    : t('paperItem', claimed, exact);
  const perLevel = details.levels.map((level) => t('levelItem',
    String(level.level), formatNumber(level.epsilon), level.intervals.map(intervalText).join(t('intervalsAnd')),
    t('kept', probability(level.level_kept), formatNumber(level.level_budget)),
    t('kept', probability(level.bit_kept), formatNumber(level.bit_budget))));
  return {
    summary: t('technicalDetails'),
    items: [
      t('levelsMechanismItem', mechanismLabel(question.mechanism)),
      t('exactItem', exact),
      variant,
      ...perLevel,
      t('thisReport', exactNumber(report.value), String(report.level), report.bit > 0 ? '+1' : '−1', String(details.reports.length)),
    ],
  };
}

// "[20000, 100000)": the exact interval, half-open except the last ("[20000 ; 100000[" in French).
function intervalText({ low, high, closed_high: closedHigh }) {
  return t(closedHigh ? 'intervalClosed' : 'intervalOpen', exactNumber(low), exactNumber(high));
}

// A number exactly as the core gave it (every digit of the double, no
// grouping), with the page's decimal mark ("0.25", "0,25" in French).
function exactNumber(value) {
  const mark = formatDecimal(1.5, 1).charAt(1);
  return String(value).replace('.', mark);
}
