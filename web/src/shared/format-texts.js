// The words of format.js: mechanism names and labels, "no formal epsilon".
// The dashboard and the creation page stay in English (they never set a language).
import { texts } from './i18n.js';

export const t = texts({
  en: {
    noFormalEpsilon: 'no formal epsilon',
    intervalTo: 'to',
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
    shortNegative: 'Negative survey',
    shortHybrid: 'Hybrid',
    shortTree: 'Tree',
    shortLevels: 'Privacy levels',
    reportedOptions: (count) => `${count} reported option${count === 1 ? '' : 's'}`,
    pureNegative: (options) => `Pure negative survey (${options})`,
    levelsLabel: (base, variant, count, budgets) => `${base}, ${variant === 'bounded' ? 'bounded variant' : 'paper variant'}: ${count} interval${count === 1 ? '' : 's'}, budgets ${budgets}`,
    rvnsLabel: (base, window, values, fresh, uniform) => `${base}: window ${window}, ${values} value${values === 1 ? '' : 's'}, ` +
      `${fresh === 'fresh' ? 'a fresh window per value' : 'one window for all values'}${uniform ? `, uniform probability γ = ${uniform}` : ', published (γ = 0)'}`,
  },
}, {
  fr: () => import('./format-texts.fr.js'),  // only for a French survey
});
