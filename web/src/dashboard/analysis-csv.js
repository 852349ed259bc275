// A tidy CSV of what an analysis panel shows, flattened here from the
// document as served (GET .../analysis): one row per group × estimate, per
// cell, or per coefficient, with the analysis's spec in the first columns so
// that files from several analyses can be stacked. Text is formula-safe as
// the server's CSV export (server/surveys/csv_export.cc): a cell starting with
// = + - @ tab or CR is quoted with a leading apostrophe.

export function analysisCsv(document, spec) {
  const specColumns = { analysis: kindOf(spec), spec: JSON.stringify(spec), interval_for: document.interval_for?.target ?? '' };
  const rows = kindOf(spec) === 'breakdown' ? breakdownRows(document)
    : kindOf(spec) === 'cross' ? crossRows(document) : regressionRows(document);
  const columns = [...Object.keys(specColumns), ...unionOfKeys(rows)];
  const lines = [columns.map(csvField).join(',')];
  for (const row of rows) lines.push(columns.map((name) => csvField({ ...specColumns, ...row }[name])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

export function kindOf(spec) {
  if (spec.by !== undefined) return 'breakdown';
  if (spec.cross !== undefined) return 'cross';
  return 'regression';
}

function unionOfKeys(rows) {
  const keys = [];
  for (const row of rows) for (const key of Object.keys(row)) if (!keys.includes(key)) keys.push(key);
  return keys;
}

// Each group's estimates (whatever the question's kind: every object in its
// results with an interval), then the differences against the reference group.
function breakdownRows(document) {
  const rows = [];
  for (const group of document.groups) {
    const base = { row: 'group', group: group.label, respondents: group.respondents, n: group.n };
    const estimates = group.result && !group.result.error ? estimatesOf(group.result) : [];
    if (estimates.length === 0) rows.push({ ...base, note: typeof group.n !== 'number' ? `hidden (${group.n})` : group.result?.error ?? 'no results' });
    for (const estimate of estimates) rows.push({ ...base, ...estimate });
  }
  for (const row of document.differences?.rows ?? []) {
    rows.push({
      row: 'difference', group: row.group, reference: document.differences.reference, label: row.label, measure: row.measure,
      estimate: row.estimate, std_error: row.std_error, ci_low: row.ci_low, ci_high: row.ci_high, note: row.note ?? '',
    });
  }
  return rows;
}

// Objects with an estimate and a 95% interval, found anywhere in a kind's
// results: {label, measure, estimate, std_error, ci_low, ci_high}.
const ESTIMATE_KEYS = ['frequency', 'estimate', 'value', 'share', 'mean'];
function estimatesOf(result) {
  const found = [];
  const visit = (node, path) => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => visit(item, `${path}[${index}]`));
      return;
    }
    if (!node || typeof node !== 'object') return;
    const key = ESTIMATE_KEYS.find((name) => typeof node[name] === 'number');
    if (key && 'ci_low' in node) {
      found.push({
        label: node.label ?? node.level ?? '', measure: path.replace(/\[\d+\]$/, '') || key, estimate: node[key],
        std_error: node.std_error ?? '', ci_low: node.ci_low, ci_high: node.ci_high,
        consistent: node.consistent_frequency ?? '',
      });
    } else if (key === 'value' && 'low' in node) {
      found.push({ label: '', measure: path, estimate: node.value, std_error: '', ci_low: node.low, ci_high: node.high, consistent: '' });
    }
    for (const [name, child] of Object.entries(node)) {
      if (child && typeof child === 'object' && name !== 'mechanism' && name !== 'privacy' && name !== 'interval_for') {
        visit(child, path ? `${path}.${name}` : name);
      }
    }
  };
  visit(result, '');
  return found;
}

function crossRows(document) {
  const ids = document.questions.map((question) => question.id);
  return document.cells.map((cell) => {
    const row = { row: 'cell' };
    ids.forEach((id, index) => { row[id] = cell.labels[index]; });
    if (cell.hidden) return { ...row, hidden: true };
    return {
      ...row, hidden: false, consistent: cell.consistent, consistent_ci_low: cell.consistent_ci_low,
      consistent_ci_high: cell.consistent_ci_high, estimate: cell.estimate, std_error: cell.std_error,
      ci_low: cell.ci_low, ci_high: cell.ci_high,
    };
  });
}

function regressionRows(document) {
  return (document.coefficients ?? []).map((coefficient) => ({
    row: 'coefficient', model: document.model, equation: coefficient.equation ?? '', outcome_level: coefficient.outcome_level ?? '',
    term: coefficient.term, estimate: coefficient.estimate, std_error: coefficient.std_error,
    ci_low: coefficient.ci_low, ci_high: coefficient.ci_high, n: document.n, converged: document.converged,
  }));
}

export function csvField(value) {
  if (value === null || value === undefined) return '';
  // Numbers are written as numbers (a difference is often negative); only text can be a formula.
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = String(value);
  const formula = /^[=+\-@\t\r]/.test(text);
  if (!formula && !/[",\r\n]/.test(text)) return text;
  return `"${formula ? "'" : ''}${text.replace(/"/g, '""')}"`;
}
