// A "levels" numeric question's partition in words, on every page: the core
// describes it (privacy.details: its levels, each one or more intervals of
// the range with an ε, and the 2k report values, each a level and a
// direction), and these helpers word it in the question's unit.
import { formatNumber, withUnit } from '../../shared/format.js';
import { edgeFormatter, rangeText } from '../histogram/ranges.js';
import { t } from './survey-texts.js';

// The mechanism's facts from a core summary or a results entry
// ({privacy: {details}}), or null for other mechanisms.
export function levelsDetails(entry) {
  const details = entry?.privacy?.details;
  return Array.isArray(details?.levels) && Array.isArray(details?.reports) ? details : null;
}

// Formats the partition's ends and boundaries to the slider's precision,
// more decimals only where two would look the same (as histogram edges).
export function levelsFormatter(details, range) {
  const edges = details.levels.flatMap((level) => level.intervals.flatMap(({ low, high }) => [low, high]));
  const sorted = [...new Set(edges)].sort((a, b) => a - b);
  return edgeFormatter(sorted, range);
}

// "20,000 to 100,000 USD", or "0 to 20,000 or 100,000 to 200,000 USD" for a
// level made of several intervals (equal budgets are one level); "ou" on a
// survey page in French (the dashboard is always English).
export function levelRangesText(level, format, unit) {
  const parts = level.intervals.map(({ low, high }) => rangeText(low, high, format, ''));
  return withUnit(parts.join(t('rangesOr')), unit);
}

// The report value's level and direction ({level, bit, value}), or null for
// a value that is none of the 2k (the core refuses those). Compared exactly:
// the report carries the core's own double.
export function reportOf(details, value) {
  return details.reports.find((report) => report.value === value) ?? null;
}

// The level numbered `number` (1 = most lenient).
export function levelNumbered(details, number) {
  return details.levels.find((level) => level.level === number) ?? null;
}

// "ε = 8.07" for the exact ε, rounded as everywhere else.
export function exactEpsilonText(details) {
  return `ε = ${formatNumber(details.exact_epsilon)}`;
}
