// How numbers, privacy budgets and mechanisms are written on every page.

const NUMBER = new Intl.NumberFormat('en', { maximumFractionDigits: 3 });
const PERCENT = new Intl.NumberFormat('en', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
const INTEGER = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });
const WHOLE_PERCENT = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 0 });

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
};

export function mechanismShortName(name) {
  return name === 'negative' ? 'Negative survey' : name.toUpperCase();
}

// `mechanism` is the definition's / results' {name, epsilon, reported_options}.
export function mechanismLabel(mechanism) {
  const base = MECHANISM_NAMES[mechanism.name] ?? mechanism.name;
  if (mechanism.name !== 'negative') return base;
  const pure = mechanism.epsilon === null || mechanism.epsilon === undefined;
  const reported = mechanism.reported_options ?? 1;
  const options = `${reported} reported option${reported === 1 ? '' : 's'}`;
  return pure ? `Pure negative survey (${options})` : `${base} (${options})`;
}
