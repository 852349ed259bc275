// kinds/linear_regression/survey-texts.js in French (loaded only for a French survey: shared/i18n.js
// loadTranslations).
export default {
  and: (first, last) => `${first} et ${last}`,
  listSeparator: ', ',
  questionOne: (number) => `question ${number}`,
  questionMany: (numbers) => `questions ${numbers}`,
  intercept: 'constante',
  explanation: (variables, numbers, target) => `Vos réponses à ${variables}${numbers ? ` (${numbers})` : ''} servent aussi à entraîner un modèle de ${target}. ` +
    'Votre appareil calcule comment le modèle actuel devrait changer d’après vos réponses, envoie l’un de ces nombres avec du bruit aléatoire ajouté, ' +
    'et les organisateurs n’apprennent que la moyenne sur de nombreuses personnes. Ce nombre s’ajoute aux rapports de ces questions : ' +
    'il augmente un peu ce que votre rapport dans son ensemble peut révéler.',
  hint: 'Il n’y a rien à répondre ici. Quand vous préparez votre rapport, cette page récupère d’abord l’état actuel du modèle auprès du serveur ' +
    '(il est public et identique pour tout le monde ; rien sur vous n’est envoyé). Si vous passez l’une de ces questions, rien n’est envoyé pour le modèle non plus.',
  detailsSummary: 'Comment le modèle est entraîné',
  detailsModel: (formula) => `Le modèle : ${formula}, chaque variable étant ramenée à l’intervalle de −1 à 1 d’après la plage de sa question.`,
  detailsRounds: (batch, clip, mechanism, epsilon) => `Il est entraîné par tours${batch ? ` de ${batch} répondants` : ''} : l’appareil de chaque répondant calcule le gradient de l’erreur quadratique ` +
    `du modèle actuel en ses propres réponses, borne chaque composante à ±${clip} et envoie une composante, tirée au hasard ` +
    `(indépendamment des réponses), perturbée par ${mechanism} à ε = ${epsilon}. Quand un tour est complet, le serveur fait la moyenne de chaque composante et effectue un pas de gradient.`,
  detailsPrivacy: (epsilon) => `Confidentialité : le budget du modèle (${epsilon}) s’ajoute à ceux des questions qu’il utilise, qui font aussi l’objet de leurs propres rapports.`,
  unansweredNumbers: (text, numbers) => `La question de modèle « ${text} » est construite à partir de vos réponses ${String(numbers).startsWith('question ') ? 'à la' : 'aux'} ${numbers} : répondez à toutes, sans en passer aucune, pour l’inclure.`,
  unansweredVariables: (text, variables) => `La question de modèle « ${text} » est construite à partir de vos réponses à ${variables} : répondez à toutes, sans en passer aucune, pour l’inclure.`,
  noEpsilon: 'un nombre calculé à partir de vos réponses est envoyé avec du bruit aléatoire ; aucun ε ne borne ce qu’il révèle.',
  answerInWords: 'rien à répondre : calculé à partir de vos réponses aux questions qu’il utilise',
  renewed: (text, round) => `Le modèle « ${text} » est passé à son tour suivant avant l’arrivée de votre rapport : le serveur n’a donc pas pu accepter ` +
    `la partie de votre rapport destinée au modèle. Votre appareil en a fait une nouvelle pour le tour ${round} à partir des mêmes réponses ; le reste de votre rapport est inchangé. ` +
    'Votre premier rapport pour le modèle est bien arrivé au serveur : envoyer celui-ci en révèle donc un peu plus sur vos réponses qu’un seul rapport.',
  renewedComplete: (text) => `Le modèle « ${text} » a terminé son entraînement avant l’arrivée de votre rapport : le serveur n’accepte plus ` +
    'la partie de votre rapport destinée au modèle. Rien n’est envoyé pour le modèle ; le reste de votre rapport est inchangé.',
  valueComplete: 'rien : le modèle a terminé son entraînement',
  valueScore: (round, value) => `un nombre lié à l’écart entre la prédiction du modèle et votre réponse, ${value} avec du bruit ajouté (tour ${round}, réservé pour tester le modèle)`,
  explanationScore: 'Le modèle a fini son entraînement. Votre appareil a calculé l’écart entre sa prédiction et votre propre réponse (le carré de la différence) et y a ajouté du bruit aléatoire : ' +
    'seul, il dit peu de chose ; les organisateurs n’utilisent que la moyenne sur de nombreuses personnes, pour savoir si le modèle prédit bien des personnes sur lesquelles il n’a pas été entraîné.',
  detailsScore: (round, target, mechanism, epsilon, value) => `Le tour ${round} est réservé : (prédiction − ${target})², sur les variables mises à l’échelle, la prédiction étant gardée dans la plage de ${target}, ` +
    `entre 0 et 4, envoyé sous la forme de ce nombre divisé par 2 moins 1, avec du bruit par ${mechanism} à ${epsilon} ; la valeur envoyée est exactement ${value}.`,
  explanationComplete: 'Le modèle a fait tous ses tours et ne prend plus de rapports : rien n’est calculé ni envoyé pour lui. Vos autres réponses sont envoyées telles qu’affichées.',
  badComponent: (question, component, components) => `question ${question} : la composante ${component} du rapport n’est pas l’une des ${components} du modèle`,
  label: 'Envoyé pour le modèle',
  valueFeature: (round, name, value) => `un nombre lié à « ${name} », ${value} avec du bruit ajouté (tour ${round})`,
  valueBase: (round, value) => `un nombre lié à la valeur de base du modèle, ${value} avec du bruit ajouté (tour ${round})`,
  explanationReport: 'Votre appareil a calculé comment le modèle devrait changer pour s’ajuster à vos réponses, a gardé un seul de ces nombres (tiré au hasard, quelles que soient vos réponses) ' +
    'et y a ajouté du bruit aléatoire : seul, il dit peu de chose ; les organisateurs n’utilisent que la moyenne sur de nombreuses personnes.',
  technicalDetails: 'Détails techniques',
  detailsRound: (round, batch) => `Tour ${round} : le rapport ne compte que pour ce tour d’entraînement${batch ? ` (${batch} rapports par tour)` : ''}.`,
  detailsComponent: (component, name, components, target, clip) => `Composante ${component} (${name} ; le modèle en a ${components}, numérotées à partir de 0, la constante en premier) : ` +
    `le gradient de (${target} − modèle)² en vos réponses, sur les variables mises à l’échelle, borné à ±${clip} puis divisé par ${clip}. ` +
    'La composante envoyée a été tirée au hasard, indépendamment de vos réponses.',
  detailsNoise: (mechanism, epsilon, value) => `Bruit : ${mechanism} à ${epsilon} ; la valeur envoyée est exactement ${value}, votre composante plus un bruit nul en moyenne.`,
};
