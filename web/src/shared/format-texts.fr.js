// shared/format-texts.js in French (loaded only for a French survey: shared/i18n.js
// loadTranslations).
export default {
  noFormalEpsilon: 'pas d’epsilon formel',
  intervalTo: 'à',
  grr: 'Réponse aléatoire généralisée (GRR)',
  oue: 'Codage unaire optimisé (OUE)',
  sue: 'Codage unaire symétrique (SUE)',
  negative: 'Enquête négative',
  rvns: 'Enquête négative à valeurs réelles (RVNS)',
  square_wave: 'Onde carrée (Square Wave)',
  laplace: 'Laplace',
  duchi: 'Duchi et al.',
  piecewise: 'Par morceaux (Piecewise)',
  hybrid: 'Hybride (Duchi + Piecewise)',
  tree: 'Arbre hiérarchique (OUE sur un niveau par rapport)',
  levels: 'Niveaux de confidentialité par intervalle (LHP, Hao et al. 2023)',
  shortNegative: 'Enquête négative',
  shortHybrid: 'Hybride',
  shortTree: 'Arbre',
  shortLevels: 'Niveaux de confidentialité',
  reportedOptions: (count) => `${count} option${count === 1 ? '' : 's'} signalée${count === 1 ? '' : 's'}`,
  pureNegative: (options) => `Enquête négative pure (${options})`,
  levelsLabel: (base, variant, count, budgets) => `${base}, ${variant === 'bounded' ? 'variante bornée' : 'variante de l’article'} : ${count} intervalle${count === 1 ? '' : 's'}, budgets ${budgets}`,
  rvnsLabel: (base, window, values, fresh, uniform) => `${base} : fenêtre ${window}, ${values} valeur${values === 1 ? '' : 's'}, ` +
    `${fresh === 'fresh' ? 'une nouvelle fenêtre par valeur' : 'une seule fenêtre pour toutes les valeurs'}${uniform ? `, probabilité uniforme γ = ${uniform}` : ', version publiée (γ = 0)'}`,
};
