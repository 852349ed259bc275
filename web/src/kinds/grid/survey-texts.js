// The grid kind's words on the survey page. Item and scale labels are the
// survey author's and are never translated; numbers come pre-formatted in
// the page's locale.
import { texts } from '../../shared/i18n.js';

export const t = texts({
  en: {
    scaleHint: (low, high) => `One answer per row, from “${low}” to “${high}”.`,
    ordinalWords: (items, p) => `each of the ${items} rows is sent as one level, drawn at random with nearby levels more likely than far ones: your true level ${p} of the time or more.`,
    grrWords: (items, p, q) => `each of the ${items} rows is sent as one level: your true level ${p} of the time, each other level ${q} of the time.`,
    duchiWords: (items, high, low) => `each of the ${items} rows is sent as “high” or “low”, drawn at random: “high” ${high} of the time if your answer is the highest level, ${low} if it is the lowest, in between for the others.`,
    highEnd: 'high',
    lowEnd: 'low',
    sentEndsLabel: 'Sent, one per row',
    unanswered: 'In a grid, choose one level in every row.',
    sentLabel: 'Levels sent, one per row',
    sentExplanation: 'Each may or may not be your answer.',
    technicalDetails: 'Technical details',
    mechanismItem: (mechanism, epsilon, perItem) => `Mechanism: ${mechanism}, ${epsilon} for the grid (${perItem} per row).`,
  },
}, {
  fr: () => import('./survey-texts.fr.js'),  // only for a French survey
});
