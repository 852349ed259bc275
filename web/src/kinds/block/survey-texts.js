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
}, {
  fr: () => import('./survey-texts.fr.js'),  // only for a French survey
});
