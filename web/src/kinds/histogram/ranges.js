// A histogram question's ranges in words, on every page: a cell or bin from
// one edge to the next ("12,570 to 50,270 USD"), and the runs of marked
// cells in a report.
import { decimalsForStep, withUnit } from '../../shared/format.js';
import { currentLanguage } from '../../shared/i18n.js';
import { stepForRange } from '../../shared/numeric-step.js';
import { t } from './range-texts.js';

// The most decimals an edge is shown with (the JSON keeps every digit).
const MAX_DECIMALS = 6;

// Formats edges (and other values in the range) for people: to the slider's
// precision over the range (whole dollars on [0, 300000], thousandths on
// [0, 1]), with more decimals only when two neighbouring `edges` would
// otherwise look the same. Grouped ("42,857"): these are read, not typed back.
// In the page's language ("42 857" in French; English on the pages that set none).
export function edgeFormatter(edges, [low, high]) {
  let decimals = decimalsForStep(stepForRange(low, high));
  const locale = currentLanguage();
  const formatWith = (places) => {
    try {
      return new Intl.NumberFormat(locale, { maximumFractionDigits: places });
    } catch {
      return new Intl.NumberFormat('en', { maximumFractionDigits: places });
    }
  };
  let format = formatWith(decimals);
  while (decimals < MAX_DECIMALS && !neighboursDiffer(edges, format)) {
    decimals += 1;
    format = formatWith(decimals);
  }
  return (value) => format.format(value);
}

function neighboursDiffer(edges, format) {
  return edges.every((edge, index) => index === 0 || format.format(edge) !== format.format(edges[index - 1]));
}

// "12,570 to 50,270 USD": the unit once, at the end ("12 570 à 50 270 USD" in French).
export function rangeText(low, high, format, unit) {
  return withUnit(t('range', format(low), format(high)), unit);
}

// "12,570–50,270": a short label for a chart's axis (the unit is on the axis title).
export function rangeLabel(low, high, format) {
  return `${format(low)}–${format(high)}`;
}

// The runs of consecutive 1 bits as [first, last] cell indices, so that a
// report marking cells 3, 4 and 5 reads as one range rather than three.
export function markedRuns(bits) {
  const runs = [];
  bits.forEach((bit, index) => {
    if (bit !== 1) return;
    const last = runs.at(-1);
    if (last && last[1] === index - 1) last[1] = index;
    else runs.push([index, index]);
  });
  return runs;
}
