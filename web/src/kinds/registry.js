// The one map from a question's "type" to its kind, and the only file that
// names the kinds (scripts/count-kind-branches.sh checks that nothing else
// branches on a type).
//
// A kind is a folder kinds/<name>/ with index.js (its name) and one module
// per page:
//   survey.js     its fieldset, reading its answer, its report in words
//   create.js     its label in the type selector, its editor fields, its definition
//   dashboard.js  its results panel, and its estimation controls if it has any
// A page reaches its own module of each kind through pageModules() below.
import * as block from './block/index.js';
import * as categorical from './categorical/index.js';
import * as grid from './grid/index.js';
import * as histogram from './histogram/index.js';
import * as linearRegression from './linear_regression/index.js';
import * as multiple from './multiple/index.js';
import * as numeric from './numeric/index.js';

// In the order the creation page offers them.
export const KINDS = Object.freeze({
  categorical, multiple, numeric, histogram, block, linear_regression: linearRegression, grid,
});

// A definition without "type" asks for a choice among options (common.md "Formats").
export const DEFAULT_TYPE = categorical.name;

// The kind (its index.js) of a question type; absent or empty is DEFAULT_TYPE.
export function kindOf(typeName) {
  const name = typeName === undefined || typeName === null || typeName === '' ? DEFAULT_TYPE : typeName;
  if (typeof name === 'string' && Object.hasOwn(KINDS, name)) return KINDS[name];
  const known = Object.keys(KINDS).map((kind) => `"${kind}"`).join(', ');
  throw new Error(`unknown question type ${JSON.stringify(typeName)}: this page knows ${known}`);
}

// Every kind, in the registry's order.
export function kinds() {
  return Object.values(KINDS);
}

// One page's module of every kind. `modules` is the page's own
//   import.meta.glob('../kinds/*/<page>.js', { eager: true })
// written as a literal in the page, so that Vite bundles into each page only
// that page's modules (the survey page never carries the dashboard's charts,
// as it would if this file imported every module). Returns moduleOf(typeName),
// which throws for an unknown type, with moduleOf.all(): [{ kind, module }]
// in the registry's order.
export function pageModules(page, modules) {
  const byKind = new Map(kinds().map((kind) => {
    const suffix = `/${kind.name}/${page}.js`;
    const path = Object.keys(modules).find((candidate) => candidate.endsWith(suffix));
    if (!path) throw new Error(`the ${kind.name} question kind has no ${page} module (web/src/kinds/${kind.name}/${page}.js)`);
    return [kind, modules[path]];
  }));
  const moduleOf = (typeName) => byKind.get(kindOf(typeName));
  moduleOf.all = () => [...byKind].map(([kind, module]) => ({ kind, module }));
  return moduleOf;
}
