// How numbers, privacy budgets and mechanisms are written on every page.

let NUMBER = new Intl.NumberFormat('en', { maximumFractionDigits: 3 });
let LOCALE = 'en';
const PERCENT = new Intl.NumberFormat('en', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
const INTEGER = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });
const WHOLE_PERCENT = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 0 });

// The survey page formats numbers in the survey's language (default English).
export function setNumberLocale(tag) {
  try {
    NUMBER = new Intl.NumberFormat(tag, { maximumFractionDigits: 3 });
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
  return `${formatPercent(low)}\u00a0to ${formatPercent(high)}`;
}

export function formatEpsilon(epsilon) {
  return epsilon === null || epsilon === undefined ? NO_FORMAL_EPSILON : `ε = ${formatNumber(epsilon)}`;
}

const MECHANISM_NAMES = {
  grr: 'Generalised randomised response (GRR)',
  oue: 'Optimised unary encoding (OUE)',
  sue: 'Symmetric unary encoding (SUE)',
  negative: 'Negative survey',
  rvns: 'Real-value negative survey (RVNS)',
  square_wave: 'Square Wave',
  laplace: 'Laplace',
  duchi: 'Duchi et al.',
  piecewise: 'Piecewise',
  hybrid: 'Hybrid (Duchi + Piecewise)',
  tree: 'Hierarchical tree (OUE on one level per report)',
  levels: 'Privacy levels by range (LHP, Hao et al. 2023)',
};

const SHORT_NAMES = {
  negative: 'Negative survey',
  rvns: 'RVNS',
  square_wave: 'Square Wave',
  laplace: 'Laplace',
  duchi: 'Duchi',
  piecewise: 'Piecewise',
  hybrid: 'Hybrid',
  tree: 'Tree',
  levels: 'Privacy levels',
};

export function mechanismShortName(name) {
  return SHORT_NAMES[name] ?? name.toUpperCase();
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

// `mechanism` is the definition's / results' {name, epsilon, reported_options}.
export function mechanismLabel(mechanism) {
  const base = MECHANISM_NAMES[mechanism.name] ?? mechanism.name;
  if (mechanism.name === 'rvns') return rvnsLabel(base, mechanism);
  if (mechanism.name === 'levels') return levelsLabel(base, mechanism);
  if (mechanism.name !== 'negative') return base;
  const pure = mechanism.epsilon === null || mechanism.epsilon === undefined;
  const reported = mechanism.reported_options ?? 1;
  const options = `${reported} reported option${reported === 1 ? '' : 's'}`;
  return pure ? `Pure negative survey (${options})` : `${base} (${options})`;
}

// The budgets per interval, in the definition's order: what the designer
// asked for, not the guarantee (the exact ε is shown apart, as "Privacy").
function levelsLabel(base, mechanism) {
  const epsilons = mechanism.epsilons ?? [];
  const variant = mechanism.variant === 'bounded' ? 'bounded variant' : 'paper variant';
  return `${base}, ${variant}: ${epsilons.length} interval${epsilons.length === 1 ? '' : 's'}, budgets ${epsilons.map(formatNumber).join(', ')}`;
}

function rvnsLabel(base, mechanism) {
  const values = mechanism.values ?? 1;
  const windows = mechanism.window_mode === 'fresh' ? 'a fresh window per value' : 'one window for all values';
  const uniform = mechanism.uniform_probability > 0 ? `, uniform probability γ = ${formatNumber(mechanism.uniform_probability)}` : ', published (γ = 0)';
  return `${base}: window ${formatNumber(mechanism.window)}, ${values} value${values === 1 ? '' : 's'}, ${windows}${uniform}`;
}
