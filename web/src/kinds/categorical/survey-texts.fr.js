// kinds/categorical/survey-texts.js in French (loaded only for a French survey: shared/i18n.js
// loadTranslations).
export default {
  grrWords: (p, q) => `une option est envoyée : votre vraie option ${p} du temps, chacune des autres ${q} du temps.`,
  unaryWords: (p, q) => `chaque option est envoyée comme un oui ou un non : votre vraie option est un oui ${p} du temps, chacune des autres ${q} du temps.`,
  negativeWords: (p, q) => `quelques options sont envoyées comme « pas la vôtre », tirées au hasard : votre vraie option en fait partie ${p} du temps, chacune des autres ${q} du temps.`,
  negativePureWords: 'quelques options qui ne sont pas la vôtre sont envoyées, tirées au hasard : elles écartent ces options à coup sûr, et ne montrent jamais votre réponse.',
  filterLabel: (count) => `Trouvez votre réponse parmi les ${count} options`,
  filterCount: (shown, count) => `Options affichées : ${shown} sur ${count}`,
  noEpsilon: 'les options envoyées comme « pas la vôtre » ne sont jamais votre réponse : le rapport les écarte donc à coup sûr, et aucun ε ne borne ce que cela révèle.',
  grrLabel: 'Option envoyée',
  grrExplanation: 'Ce peut être votre réponse, ou non.',
  unaryLabel: 'Options envoyées comme « oui »',
  unaryExplanation: 'Un oui n’est peut-être pas votre réponse, et votre réponse est peut-être un non.',
  negativeLabel: 'Options envoyées comme « pas la vôtre »',
  negativeExplanation: 'Elles ont été tirées au hasard.',
  technicalDetails: 'Détails techniques',
  mechanismItem: (mechanism, epsilon) => `Mécanisme : ${mechanism}, ${epsilon}.`,
  probabilitiesItem: (p, q) => `p = ${p}, q = ${q}.`,
};
