// kinds/grid/survey-texts.js in French (loaded only for a French survey: shared/i18n.js loadTranslations).
export default {
  scaleHint: (low, high) => `Une réponse par ligne, de « ${low} » à « ${high} ».`,
  ordinalWords: (items, p) => `chacune des ${items} lignes est envoyée comme un niveau tiré au hasard, les niveaux proches plus probables que les lointains : votre vrai niveau ${p} du temps ou plus.`,
  grrWords: (items, p, q) => `chacune des ${items} lignes est envoyée comme un niveau : votre vrai niveau ${p} du temps, chacun des autres ${q} du temps.`,
  duchiWords: (items, high, low) => `chacune des ${items} lignes est envoyée comme « haut » ou « bas », tiré au hasard : « haut » ${high} du temps si votre réponse est le niveau le plus haut, ${low} si c’est le plus bas, entre les deux pour les autres.`,
  highEnd: 'haut',
  lowEnd: 'bas',
  sentEndsLabel: 'Envoyé, un par ligne',
  unanswered: 'Dans une grille, choisissez un niveau dans chaque ligne.',
  sentLabel: 'Niveaux envoyés, un par ligne',
  sentExplanation: 'Chacun peut être votre réponse, ou non.',
  technicalDetails: 'Détails techniques',
  mechanismItem: (mechanism, epsilon, perItem) => `Mécanisme : ${mechanism}, ${epsilon} pour la grille (${perItem} par ligne).`,
};
