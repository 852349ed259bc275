// kinds/histogram/survey-texts.js in French (loaded only for a French survey: shared/i18n.js
// loadTranslations).
export default {
  noEpsilon: 'chaque tranche est marquée oui ou non au hasard, plus souvent pour votre propre tranche ; aucun ε ne borne ce que cela révèle.',
  privacyWords: (p, q) => `la plage des valeurs est découpée en tranches, chacune envoyée comme un oui ou un non au hasard : votre propre tranche est un oui ${p} du temps, chacune des autres ${q} du temps.`,
  labelOne: 'Tranche marquée par votre rapport',
  labelMany: 'Tranches marquées par votre rapport',
  joined: (marked, shown) => `Les tranches marquées qui se touchent sont réunies : ${marked} des ${shown} tranches sont marquées.`,
  explanation: (whole, ranges, p, q) => `La plage de ${whole} est découpée en ${ranges} tranches plus petites, et votre rapport marque chacune oui ou non au hasard : ` +
    `votre propre tranche est marquée ${p} du temps ; chacune des autres ${q} du temps. Une tranche marquée n’est donc pas forcément la vôtre, et la vôtre peut ne pas être marquée.`,
  explanationLevels: (whole, ranges, levels, p, q) => `La plage de ${whole} est découpée en ${ranges} tranches plus petites (un niveau de détail parmi ${levels}, tiré au hasard pour ce rapport), ` +
    `et votre rapport marque chacune oui ou non au hasard : votre propre tranche est marquée ${p} du temps ; chacune des autres ${q} du temps. ` +
    'Une tranche marquée n’est donc pas forcément la vôtre, et la vôtre peut ne pas être marquée.',
  technicalDetails: 'Détails techniques',
  detailsMechanism: (label, epsilon) => `Mécanisme : ${label}, ε = ${epsilon}.`,
  detailsChances: (p, q) => `p = ${p} : la probabilité que le bit de votre propre tranche vaille 1 ; q = ${q} : la probabilité que le bit de chaque autre tranche vaille 1.`,
  detailsFlat: (bits, ones) => `Le rapport compte ${bits} bits, un par tranche, de la plus basse à la plus haute ; ${ones === 0 ? 'aucun ne vaut 1' : `${ones} d’entre eux ${ones > 1 ? 'valent' : 'vaut'} 1`}.`,
  detailsTree: (level, height, fanout, bits, ones) => `Le rapport est le niveau ${level} sur ${height} d’un arbre dont chaque nœud a ${fanout} enfants : ` +
    `${bits} bits, un par tranche de ce niveau, de la plus basse à la plus haute ; ${ones === 0 ? 'aucun ne vaut 1' : `${ones} d’entre eux ${ones > 1 ? 'valent' : 'vaut'} 1`}.`,
  detailsPadding: (padding) => `Les ${padding} derniers ne représentent aucune valeur : ils ne servent qu’à compléter l’arbre.`,
};
