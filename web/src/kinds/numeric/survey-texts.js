// The numeric kind's words on the survey page (survey.js, and the "levels"
// report: levels-report.js, levels.js). Numbers and ranges come
// pre-formatted in the page's locale. levels.js is also used by the
// dashboard, which never sets a language, so it reads the English.
import { texts } from '../../shared/i18n.js';

export const t = texts({
  en: {
    // survey.js
    rvnsWords: 'a few numbers drawn at random from the range are sent instead of yours, none of them close to your answer.',
    squareWaveWords: 'one number drawn at random is sent instead of yours, more often close to your answer than far from it.',
    levelsWords: 'your answer’s range and a direction (towards the top or the bottom) are sent only after randomising them, so either may not match your answer; some ranges are given more privacy than others.',
    noiseWords: 'your answer with random noise added is sent; on its own it says little, only averages over many people are meaningful.',
    noEpsilon: 'the values sent always avoid a hidden window around your answer, which hides it, but that gives no formal guarantee: no ε bounds what they reveal.',
    valueLabel: 'Value reported instead of yours',
    valuesLabel: 'Values reported instead of yours',
    rvnsExplanation: 'These were drawn at random from the range, away from your answer.',
    squareWaveExplanation: 'Drawn at random, more often close to your answer than far from it.',
    noiseExplanation: 'Your answer plus random noise (it can fall outside the range); only averages over many reports are meaningful.',
    windowMixedNote: (width, chance) => `Each value avoids a hidden window ${width} wide around your answer, except that ${chance} of the time a value is drawn from the whole range instead.`,
    windowNote: (width) => `None of these values lies in the hidden window ${width} wide around your answer.`,
    technicalDetails: 'Technical details',
    mechanismItem: (mechanism, epsilon) => `Mechanism: ${mechanism}, ${epsilon}.`,
    windowMixedItem: (gamma) => `Each value is drawn from the whole range with probability γ = ${gamma}, ignoring the window: that is what bounds ε.`,
    windowPublishedItem: 'The values always avoid the window (γ = 0): no formal ε holds.',
    // levels-report.js
    unknownLabel: 'Value reported',
    unknownExplanation: 'This value names no range and direction of this question.',
    rangeLabel: 'Range reported',
    rangesLabel: 'Ranges reported',
    directionLabel: 'Direction reported',
    towardsTop: (end) => `towards the top of the whole range (${end})`,
    towardsBottom: (end) => `towards the bottom of the whole range (${end})`,
    direction: (reversed) => 'The direction leans towards where your answer lies: the higher your answer, the more often it says “towards the top” ' +
      `(always at the very top, half the time in the middle, never at the very bottom); it is then reversed ${reversed} of the time for the range reported.`,
    oneRange: 'The whole range is one range, so it says nothing about your answer.',
    truthSame: (chance) => `Your true range is reported ${chance} of the time`,
    truthSpread: (low, high) => `Your true range is reported ${low} to ${high} of the time (depending on the range, see below)`,
    truthOtherwise: (truth, count) => `${truth}, otherwise another of the ${count} ranges at random. So the range reported may not be yours.`,
    keptPart: (range, chance) => `${range}: ${chance}`,
    keptSeparator: '; ',
    keptNote: (parts) => `How often your true range is reported, by range (stricter ranges are reported truthfully less often): ${parts}.`,
    levelsMechanismItem: (mechanism) => `Mechanism: ${mechanism}.`,
    exactItem: (exact) => `Exact ε = ${exact}: the report (range and direction together) is ε-LDP, and no smaller ε holds.`,
    boundedItem: (smallest, exact) => `Bounded variant: the range is randomised at ε_t − ε_min and the direction at ε_min = ${smallest}, so the paper’s statement holds for it; ε = ${exact} is exact.`,
    paperItem: (claimed, exact) => `The paper’s claim (not a guarantee): ε = ${claimed}. It bounds the range and the direction separately; sent together they reveal more, so ε = ${exact} is what holds.`,
    kept: (probability, budget) => `with probability ${probability} (budget ${budget})`,
    levelItem: (level, epsilon, intervals, levelKept, bitKept) => `Level ${level} (ε = ${epsilon}): ${intervals}; true level kept ${levelKept}, direction kept ${bitKept}.`,
    intervalsAnd: ' and ',
    intervalOpen: (low, high) => `[${low}, ${high})`,
    intervalClosed: (low, high) => `[${low}, ${high}]`,
    thisReport: (value, level, direction, count) => `This report: the value ${value} stands for level ${level}, direction ${direction} ` +
      `(one of ${count} values). Before it is kept or reversed, the direction is +1 with probability (1 + v)/2, ` +
      'where v = 2(x − a)/(b − a) − 1 is the answer x’s position in the range [a, b].',
    // levels.js
    rangesOr: ' or ',
  },
}, {
  fr: () => import('./survey-texts.fr.js'),  // only for a French survey
});
