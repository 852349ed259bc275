// The multiple kind's words on the survey page. Option labels are the survey
// author's and are never translated; numbers come pre-formatted.
import { texts } from '../../shared/i18n.js';

export const t = texts({
  en: {
    chooseAll: 'Choose all that apply.',
    chooseAtMost: (m) => `Choose all that apply (at most ${m}).`,
    noneOfThese: 'None of these',
    unanswered: 'Tick the options that apply, or “None of these”.',
    bitsWords: (p, q) => `each option is sent as a yes or a no: an option you ticked is a yes ${p} of the time, one you did not ${q} of the time.`,
    paddingWords: (p, q) => `one item is sent: one of your ticked options (or a blank, if you ticked few) drawn at random is sent ${p} of the time, each other value ${q} of the time.`,
    wholeSet: 'One ε covers the whole set you tick.',
    bitsLabel: 'Options sent as “yes”',
    bitsExplanation: 'A yes may not be one you ticked, and one you ticked may be a no.',
    paddingLabel: 'Item sent',
    paddingExplanation: 'It may or may not be one you ticked.',
    blank: (j) => `blank ${j}`,
    none: 'none',
    technicalDetails: 'Technical details',
    mechanismItem: (mechanism, epsilon) => `Mechanism: ${mechanism}, ${epsilon} for the whole set.`,
    probabilitiesItem: (p, q) => `p = ${p}, q = ${q}.`,
  },
}, {
  fr: () => import('./survey-texts.fr.js'),
});
