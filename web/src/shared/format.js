// How numbers, privacy budgets and mechanisms are written on every page.
import { t } from './format-texts.js';

let NUMBER = new Intl.NumberFormat('en', { maximumFractionDigits: 3 });
let LOCALE = 'en';
let PERCENT = new Intl.NumberFormat('en', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
let INTEGER = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });
let WHOLE_PERCENT = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 0 });

// The survey page formats numbers in the survey's language (default English).
export function setNumberLocale(tag) {
  try {
    NUMBER = new Intl.NumberFormat(tag, { maximumFractionDigits: 3 });
    PERCENT = new Intl.NumberFormat(tag, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
    INTEGER = new Intl.NumberFormat(tag, { maximumFractionDigits: 0 });
    WHOLE_PERCENT = new Intl.NumberFormat(tag, { style: 'percent', maximumFractionDigits: 0 });
    LOCALE = tag;
  } catch {
    // unknown tag: keep English
  }
}

// A probability as a whole percentage in the current locale ("73%").
export function formatChance(value) {
  // Below 1%, one significant digit ("0.3%"), so that a small chance is never shown as 0%.
  const small = value > 0 && value < 0.005;
  return new Intl.NumberFormat(LOCALE, small ? { style: 'percent', maximumSignificantDigits: 1 } : { style: 'percent', maximumFractionDigits: 0 }).format(value);
}

// In English; formatEpsilon says it in the page's language.
export const NO_FORMAL_EPSILON = 'no formal epsilon';
export const MISSING = '—';

export function formatNumber(value) {
  return value === null || value === undefined ? MISSING : NUMBER.format(value);
}

export function formatInteger(value) {
  return value === null || value === undefined ? MISSING : INTEGER.format(value);
}

export function formatPercent(value) {
  return value === null || value === undefined ? MISSING : PERCENT.format(value);
}

// Axis ticks: whole percentages ("20%").
export function formatPercentTick(value) {
  return WHOLE_PERCENT.format(value);
}

export function formatInterval(low, high) {
  if (low === null || low === undefined || high === null || high === undefined) return MISSING;
  // The no-break space keeps "12.3% to" together when a narrow cell wraps.
  return `${formatPercent(low)}\u00a0${t('intervalTo')} ${formatPercent(high)}`;
}

export function formatEpsilon(epsilon) {
  return epsilon === null || epsilon === undefined ? t('noFormalEpsilon') : `ε = ${formatNumber(epsilon)}`;
}

// Full names, and the short names that are not the acronym in capitals.
const MECHANISMS = ['grr', 'oue', 'sue', 'negative', 'rvns', 'square_wave', 'laplace', 'duchi', 'piecewise', 'hybrid', 'tree', 'levels'];
const SHORT_NAMES = {
  negative: () => t('shortNegative'),
  rvns: () => 'RVNS',
  square_wave: () => 'Square Wave',
  laplace: () => 'Laplace',
  duchi: () => 'Duchi',
  piecewise: () => 'Piecewise',
  hybrid: () => t('shortHybrid'),
  tree: () => t('shortTree'),
  levels: () => t('shortLevels'),
};

export function mechanismShortName(name) {
  return SHORT_NAMES[name]?.() ?? name.toUpperCase();
}

// The published RVNS (uniform_probability absent or 0) has no finite epsilon.
export function isPublishedRvns(mechanism) {
  return mechanism.name === 'rvns' && !(mechanism.uniform_probability > 0);
}

// A number with a unit ("23.7 kg/m2"); `unit` may be empty.
export function withUnit(text, unit) {
  return unit ? `${text}\u00a0${unit}` : text;
}

// Digits after the decimal point that match a slider step (0.1 -> 1, 5 -> 0).
export function decimalsForStep(step) {
  for (let decimals = 0; decimals < 6; decimals++) {
    const scaled = step * 10 ** decimals;
    if (Math.abs(scaled - Math.round(scaled)) <= 1e-9 * Math.max(1, scaled)) return decimals;
  }
  return 6;
}

// A value rounded to `decimals` places, without trailing zeros.
export function formatDecimal(value, decimals) {
  if (value === null || value === undefined) return MISSING;
  return new Intl.NumberFormat(LOCALE, { maximumFractionDigits: decimals, useGrouping: false }).format(value);
}

// The same with the locale's thousands separator ("300,000" in English,
// "300 000" in French): for numbers read, never for a typed field's value.
export function formatGrouped(value, decimals) {
  if (value === null || value === undefined) return MISSING;
  return new Intl.NumberFormat(LOCALE, { maximumFractionDigits: decimals }).format(value);
}

// A text that ends a sentence, with a full stop unless it already ends with
// one ("Do you smoke?" stays as it is, never "Do you smoke?.").
export function endSentence(text) {
  return /[.!?…]["”»’)]*\s*$/u.test(text) ? text : `${text}.`;
}

// `mechanism` is the definition's / results' {name, epsilon, reported_options}.
export function mechanismLabel(mechanism) {
  const base = MECHANISMS.includes(mechanism.name) ? t(mechanism.name) : mechanism.name;
  if (mechanism.name === 'rvns') return rvnsLabel(base, mechanism);
  if (mechanism.name === 'levels') return levelsLabel(base, mechanism);
  if (mechanism.name !== 'negative') return base;
  const pure = mechanism.epsilon === null || mechanism.epsilon === undefined;
  const reported = mechanism.reported_options ?? 1;
  const options = t('reportedOptions', reported);
  return pure ? t('pureNegative', options) : `${base} (${options})`;
}

// The budgets per interval, in the definition's order: what the designer
// asked for, not the guarantee (the exact ε is shown apart, as "Privacy").
function levelsLabel(base, mechanism) {
  const epsilons = mechanism.epsilons ?? [];
  return t('levelsLabel', base, mechanism.variant, epsilons.length, epsilons.map(formatNumber).join(', '));
}

function rvnsLabel(base, mechanism) {
  const uniform = mechanism.uniform_probability > 0 ? formatNumber(mechanism.uniform_probability) : '';
  return t('rvnsLabel', base, formatNumber(mechanism.window), mechanism.values ?? 1, mechanism.window_mode, uniform);
}

// A number to `digits` significant digits in the page's locale ("0,1824" in French).
export function formatSignificant(value, digits) {
  if (value === null || value === undefined) return MISSING;
  return new Intl.NumberFormat(LOCALE, { maximumSignificantDigits: digits }).format(value);
}

// A probability as a percentage to `digits` significant digits in the page's locale ("4,7 %").
export function formatPercentSignificant(value, digits) {
  if (value === null || value === undefined) return MISSING;
  return new Intl.NumberFormat(LOCALE, { style: 'percent', maximumSignificantDigits: digits }).format(value);
}

// A number with every digit given (up to 12 decimals), in the page's locale: an answer sent as typed.
export function formatAsGiven(value) {
  if (value === null || value === undefined) return MISSING;
  return new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 12 }).format(value);
}
