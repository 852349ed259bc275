// kinds/block/survey-texts.js in French (loaded only for a French survey: shared/i18n.js
// loadTranslations).
export default {
  mechanismLabel: 'PMOUE (codage unaire optimisé par attribut, budgets personnalisés)',
  intro: 'Répondez aux parties de votre choix, au moins une ; « Je préfère ne pas répondre » laisse une partie de côté. ' +
    'Pour chaque partie, vous pouvez aussi choisir à quel point elle doit rester privée : une partie plus privée est davantage rendue aléatoire ' +
    'et les autres moins, si bien que l’ensemble de vos réponses reste tout aussi protégé.',
  learns: 'Ce que les organisateurs apprennent : à quelles parties vous avez répondu, jamais vos réponses ni vos réglages. ' +
    'Pour une partie répondue, le nombre de cases cochées dans votre rapport laisse en partie deviner à quel point vous avez voulu qu’elle reste privée ' +
    '(une partie plus privée a plus de cases cochées au hasard).',
  technicalDetails: 'Détails techniques',
  preferNot: 'Je préfère ne pas répondre',
  sensitivityLegend: 'À quel point cette partie doit-elle rester privée ?',
  more_private: 'Plus privée',
  usual: 'Normale',
  less_private: 'Moins privée',
  attributeAnswered: (p, q) => `Pour cette partie, la case de votre vraie option est cochée ${p} du temps, celle de chaque autre option ${q} du temps.`,
  attributeUnanswered: 'Sans réponse : rien n’est envoyé sur cette partie.',
  noneAnswered: (parts) => `Vous n’avez encore répondu à aucune des ${parts} parties.`,
  answered: (answered, parts) => (answered === 1
    ? `Vous avez répondu à 1 des ${parts} parties : seule cette partie est envoyée, rendue aléatoire selon son réglage.`
    : `Vous avez répondu à ${answered} des ${parts} parties : seules celles-ci sont envoyées, chacune rendue aléatoire selon son réglage.`),
  computing: 'Préparation de la protection de la vie privée…',
  notComputed: (message) => `La confidentialité de ces choix n’a pas pu être calculée : ${message}`,
  detailsTotal: (total, each, answered, parts) => `Pour ces choix : ε = ${total} au total, ${each} pour ` +
    `${answered === 1 ? 'la partie à laquelle vous avez répondu' : `chacune des ${answered} parties auxquelles vous avez répondu`} (sur ${parts}), réparti selon vos réglages.`,
  detailsMechanism: (label, p) => `Mécanisme : ${label}. Chaque partie répondue est envoyée sous forme d’une case (un bit) par option : le bit de la vraie option vaut 1 avec p = ${p}, ` +
    'celui de chaque autre option avec q = 1/(e^ε + 1), ε étant la part de budget de cette partie.',
  detailsBudget: (each, settings, low, high) => `Votre budget est m × ${each} pour m parties répondues, réparti proportionnellement à vos réglages (${settings}) ` +
    `et maintenu entre ${low} et ${high} par partie. La répartition n’utilise que les parties auxquelles vous répondez et vos réglages, jamais vos réponses ; les parts ne sont pas envoyées.`,
  detailsAttribute: (text, epsilon, q) => `${text} : ε = ${epsilon}, q = ${q}.`,
  detailsAttributeUnanswered: (text) => `${text} : sans réponse, non envoyée.`,
  unansweredHint: 'Une question en plusieurs parties demande une réponse à au moins une partie (« Je préfère ne pas répondre » laisse une partie de côté).',
  noEpsilon: 'chaque partie est envoyée sous forme de cases cochées au hasard, plus souvent pour votre propre option ; aucun ε ne borne ce que cela révèle.',
  answerPart: (text, option) => `${text} : ${option}`,
  answerPartSetting: (text, option, setting) => `${text} : ${option} (${setting})`,
  separator: '\u00a0; ',
  reportLabel: 'Cases cochées dans votre rapport',
  noneTicked: 'aucune cochée',
  explanation: (p) => `Chaque partie à laquelle vous avez répondu est envoyée sous forme d’une case par option, chacune cochée au hasard : la case de votre vraie option ${p} du temps, ` +
    'celle de chaque autre option moins souvent (l’écart dépend du réglage choisi pour cette partie). ' +
    'Une case cochée n’est donc pas forcément la vôtre, et la vôtre peut ne pas être cochée.',
  leftOut: (parts, count) => `Sans réponse, donc non envoyé : ${parts}. Les organisateurs voient seulement ${count === 1 ? 'que cette partie a été laissée' : 'que ces parties ont été laissées'} de côté.`,
  detailsReport: (label, each) => `Mécanisme : ${label}, ε = ${each} par partie répondue en moyenne ; ` +
    'le rapport contient les identifiants des parties répondues et leurs bits, pas leur part du budget.',
  detailsBits: (text, id, bits, options) => `${text} (« ${id} ») : bits ${bits}, un par option, dans l’ordre (${options}).`,
  unknownAttribute: (question, id) => `question ${question} : le rapport nomme un attribut « ${id} » qui n’est pas dans ce bloc`,
  wrongBits: (question, id, options, bits) => `question ${question} : l’attribut « ${id} » a ${options} options mais son rapport a ${bits} bits`,
};
