// The model (linear regression) kind's words on the survey page.
import { texts } from '../../shared/i18n.js';

export const t = texts({
  en: {
    and: (first, last) => `${first} and ${last}`,
    listSeparator: ', ',
    questionOne: (number) => `question ${number}`,
    questionMany: (numbers) => `questions ${numbers}`,
    intercept: 'intercept',
    explanation: (variables, numbers, target) => `Your answers to ${variables}${numbers ? ` (${numbers})` : ''} also help train a model of ${target}. ` +
      'Your device computes how the current model should change for your answers, sends one of those numbers with random noise added, ' +
      'and the organisers only learn the average over many people. This number is sent on top of those questions’ own reports, ' +
      'so it adds a little to what your report as a whole can reveal.',
    hint: 'There is nothing to answer here. When you prepare your report, this page first fetches the model’s current state from the server ' +
      '(it is public, the same for everyone; nothing about you is sent). If you skip any of those questions, nothing is sent for the model either.',
    detailsSummary: 'How the model is trained',
    detailsModel: (formula) => `The model: ${formula}, each variable scaled to the range −1 to 1 by its question’s range.`,
    detailsRounds: (batch, clip, mechanism, epsilon) => `It is trained in rounds${batch ? ` of ${batch} respondents` : ''}: each respondent’s device computes the gradient of the squared error ` +
      `of the current model at their own answers, clips each component to ±${clip}, and sends one component, chosen at random ` +
      `(independently of the answers), perturbed by ${mechanism} at ε = ${epsilon}. When a round is complete the server averages each component and takes one gradient step.`,
    detailsPrivacy: (epsilon) => `Privacy: the model’s ${epsilon} adds to the budgets of the questions it uses, which are also reported on their own.`,
    unansweredNumbers: (text, numbers) => `The model question “${text}” is built from your answers to ${numbers}: answer all of them (not skipped) to include it.`,
    unansweredVariables: (text, variables) => `The model question “${text}” is built from your answers to ${variables}: answer all of them (not skipped) to include it.`,
    noEpsilon: 'one number computed from your answers is sent with random noise; no ε bounds what it reveals.',
    answerInWords: 'nothing to answer: computed from your answers to the questions it uses',
    renewed: (text, round) => `The model “${text}” moved on to its next round before your report arrived, so the server could not accept ` +
      `the model’s part of it. Your device has made a new one for round ${round} from the same answers; the rest of your report is unchanged. ` +
      'Your first model report did reach the server, so sending this one reveals a little more about your answers than one report would.',
    renewedComplete: (text) => `The model “${text}” finished its training before your report arrived, so the server no longer takes ` +
      'the model’s part of it. Nothing is sent for the model now; the rest of your report is unchanged.',
    valueComplete: 'nothing: the model has finished its training',
    valueScore: (round, value) => `one number about how far the model’s prediction is from your answer, ${value} with noise added (round ${round}, held out to test the model)`,
    explanationScore: 'The model has finished training. Your device worked out how far its prediction is from your own answer (the squared difference) and added random noise to it: ' +
      'on its own it says little; the organisers only use the average over many people, to tell how well the model predicts people it was not trained on.',
    detailsScore: (round, target, mechanism, epsilon, value) => `Round ${round} is held out: (prediction − ${target})², on the scaled variables, the prediction kept within the range of ${target}, ` +
      `between 0 and 4, sent as that number divided by 2 minus 1, with noise by ${mechanism} at ${epsilon}; the value sent is exactly ${value}.`,
    explanationComplete: 'The model has done all its rounds and takes no more reports, so nothing is computed or sent for it. Your other answers are sent as shown.',
    badComponent: (question, component, components) => `question ${question}: the report's component ${component} is not one of the model's ${components}`,
    label: 'Sent for the model',
    valueFeature: (round, name, value) => `one number about “${name}”, ${value} with noise added (round ${round})`,
    valueBase: (round, value) => `one number about the model’s base value, ${value} with noise added (round ${round})`,
    explanationReport: 'Your device worked out how the model should change to fit your answers, kept one of those numbers (chosen at random, whatever your answers) ' +
      'and added random noise to it: on its own it says little; the organisers only use the average over many people.',
    technicalDetails: 'Technical details',
    detailsRound: (round, batch) => `Round ${round}: the report counts only towards this round of training${batch ? ` (${batch} reports per round)` : ''}.`,
    detailsComponent: (component, name, components, target, clip) => `Component ${component} (${name}; the model has ${components}, numbered from 0, the intercept first): ` +
      `the gradient of (${target} − model)² at your answers, on the scaled variables, clipped to ±${clip} and divided by ${clip}. ` +
      'Which component is sent was drawn at random, independently of your answers.',
    detailsNoise: (mechanism, epsilon, value) => `Noise: ${mechanism} at ${epsilon}; the value sent is exactly ${value}, your component plus noise that is zero on average.`,
  },
  fr: {
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
  },
});
