// kinds/multiple/survey-texts.js in French (loaded only for a French survey).
export default {
  chooseAll: 'Cochez toutes les réponses qui s’appliquent.',
  chooseAtMost: (m) => `Cochez toutes les réponses qui s’appliquent (au plus ${m}).`,
  noneOfThese: 'Aucune de ces réponses',
  unanswered: 'Cochez les options qui s’appliquent, ou « Aucune de ces réponses ».',
  bitsWords: (p, q) => `chaque option est envoyée comme un oui ou un non : une option cochée est un oui ${p} du temps, une option non cochée ${q} du temps.`,
  paddingWords: (p, q) => `un seul élément est envoyé : une de vos options cochées (ou un blanc si vous en avez coché peu), tirée au hasard, est envoyée ${p} du temps, chacune des autres valeurs ${q} du temps.`,
  wholeSet: 'Un seul ε couvre tout l’ensemble coché.',
  bitsLabel: 'Options envoyées comme « oui »',
  bitsExplanation: 'Un oui n’est peut-être pas une option cochée, et une option cochée est peut-être un non.',
  paddingLabel: 'Élément envoyé',
  paddingExplanation: 'Ce peut être une de vos options cochées, ou non.',
  blank: (j) => `blanc ${j}`,
  none: 'aucune',
  technicalDetails: 'Détails techniques',
  mechanismItem: (mechanism, epsilon) => `Mécanisme : ${mechanism}, ${epsilon} pour tout l’ensemble.`,
  probabilitiesItem: (p, q) => `p = ${p}, q = ${q}.`,
};
