// The block kind's words on the survey page (and its mechanism's name, which
// shared.js also gives the dashboard and the creation page in English).
import { texts } from '../../shared/i18n.js';
import { endSentence } from '../../shared/format.js';

export const t = texts({
  en: {
    mechanismLabel: 'PMOUE (optimised unary encoding per attribute, personalised budgets)',
    intro: 'Answer any of these parts, at least one; “Prefer not to say” leaves a part out. ' +
      'For each part you can also choose how private it should be: a more private part is randomised more and the others less, ' +
      'so your answers as a whole stay just as protected.',
    learns: 'What the organisers learn: which parts you answered, never your answers or your settings. ' +
      'For a part you answered, the number of ticked boxes in your report partly hints at how private you asked it to be ' +
      '(a more private part has more boxes ticked at random).',
    technicalDetails: 'Technical details',
    preferNot: 'Prefer not to say',
    sensitivityLegend: 'How private should this part be?',
    more_private: 'More private',
    usual: 'Usual',
    less_private: 'Less private',
    attributeAnswered: (p, q) => `For this part, your true option’s box is ticked ${p} of the time, every other option’s box ${q} of the time.`,
    attributeUnanswered: 'Not answered: nothing about this part is sent.',
    noneAnswered: (parts) => `You have answered none of the ${parts} parts yet.`,
    answered: (answered, parts) => (answered === 1
      ? `You have answered 1 of the ${parts} parts: only that part is sent, randomised as its setting asks.`
      : `You have answered ${answered} of the ${parts} parts: only those are sent, each randomised as its setting asks.`),
    computing: 'Preparing privacy protection…',
    notComputed: (message) => `The privacy of these choices could not be computed: ${message}`,
    detailsTotal: (total, each, answered, parts) => `For these choices: ε = ${total} in total, ${each} for each of the ` +
      `${answered === 1 ? '1 part' : `${answered} parts`} you answered (of ${parts}), shared out by your settings.`,
    detailsMechanism: (label, p) => `Mechanism: ${label}. Each answered part is sent as one box (bit) per option: the true option’s bit is 1 with p = ${p}, ` +
      'every other option’s with q = 1/(e^ε + 1), ε that part’s share.',
    detailsBudget: (each, settings, low, high) => `Your budget is m × ${each} for m answered parts, split in proportion to your settings (${settings}) ` +
      `and kept between ${low} and ${high} per part. The split uses only which parts you answer and your settings, never your answers; the shares are not sent.`,
    detailsAttribute: (text, epsilon, q) => `${text}: ε = ${epsilon}, q = ${q}.`,
    detailsAttributeUnanswered: (text) => `${text}: not answered, not sent.`,
    unansweredHint: 'A question made of parts needs at least one part answered (“Prefer not to say” leaves a part out).',
    noEpsilon: 'each part is sent as boxes ticked at random, more often for your own option; no ε bounds what that reveals.',
    answerPart: (text, option) => `${text}: ${option}`,
    answerPartSetting: (text, option, setting) => `${text}: ${option} (${setting})`,
    separator: '; ',
    reportLabel: 'Boxes ticked in your report',
    noneTicked: 'none ticked',
    explanation: (p) => `Each part you answered is sent as one box per option, each ticked at random: your true option’s box ${p} of the time, ` +
      'every other option’s box less often (how much less follows the privacy you chose for that part). So a ticked box may not be yours, and yours may be unticked.',
    leftOut: (parts, count) => `Not answered, so not sent: ${endSentence(parts)} The organisers see only that ${count === 1 ? 'it was' : 'they were'} left out.`,
    detailsReport: (label, each) => `Mechanism: ${label}, ε = ${each} per answered part on average; ` +
      'the report carries the answered parts’ ids and their bits, not their shares of the budget.',
    detailsBits: (text, id, bits, options) => `${text} (“${id}”): bits ${bits}, one per option in order (${options}).`,
    unknownAttribute: (question, id) => `question ${question}: the report names no attribute "${id}" of this block`,
    wrongBits: (question, id, options, bits) => `question ${question}: attribute "${id}" has ${options} options but its report has ${bits} bits`,
  },
  fr: {
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
  },
});
