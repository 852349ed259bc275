// The histogram kind's words on the survey page (its ranges' words are in range-texts.js).
import { texts } from '../../shared/i18n.js';

export const t = texts({
  en: {
    noEpsilon: 'each range is marked yes or no at random, more often for your own range; no ε bounds what that reveals.',
    privacyWords: (p, q) => `the range of values is split into smaller ranges, each sent as a yes or a no at random: your own range is a yes ${p} of the time, each other range ${q} of the time.`,
    labelOne: 'Range your report marks',
    labelMany: 'Ranges your report marks',
    joined: (marked, shown) => `Marked ranges that touch are shown joined: ${marked} of the ${shown} ranges are marked.`,
    explanation: (whole, ranges, p, q) => `The range ${whole} is split into ${ranges} smaller ranges, and your report marks each one yes or no at random: ` +
      `your own range is marked ${p} of the time; each other range ${q} of the time. So a marked range may not be yours, and yours may be unmarked.`,
    explanationLevels: (whole, ranges, levels, p, q) => `The range ${whole} is split into ${ranges} smaller ranges (one of ${levels} levels of detail, picked at random for this report), ` +
      `and your report marks each one yes or no at random: your own range is marked ${p} of the time; each other range ${q} of the time. ` +
      'So a marked range may not be yours, and yours may be unmarked.',
    technicalDetails: 'Technical details',
    detailsMechanism: (label, epsilon) => `Mechanism: ${label}, ε = ${epsilon}.`,
    detailsChances: (p, q) => `p = ${p}: the chance your own range's bit is 1; q = ${q}: the chance each other range's bit is 1.`,
    detailsFlat: (bits, ones) => `The report is ${bits} bits, one per range in order from the lowest; ${ones} of them ${ones === 1 ? 'is' : 'are'} 1.`,
    detailsTree: (level, height, fanout, bits, ones) => `The report is level ${level} of ${height} of a tree with fan-out ${fanout}: ` +
      `${bits} bits, one per range of that level in order from the lowest; ${ones} of them ${ones === 1 ? 'is' : 'are'} 1.`,
    detailsPadding: (padding) => `The last ${padding} stand for no values: padding that completes the tree.`,
  },
}, {
  fr: () => import('./survey-texts.fr.js'),  // only for a French survey
});
