// The categorical kind's words on the survey page. Option labels are the
// survey author's and are never translated; numbers come pre-formatted in
// the page's locale.
import { texts } from '../../shared/i18n.js';

export const t = texts({
  en: {
    grrWords: (p, q) => `one option is sent: your true option ${p} of the time, each other option ${q} of the time.`,
    unaryWords: (p, q) => `each option is sent as a yes or a no: your true option is a yes ${p} of the time, each other option ${q} of the time.`,
    negativeWords: (p, q) => `a few options are sent as “not yours”, picked at random: your true option is among them ${p} of the time, each other option ${q} of the time.`,
    negativePureWords: 'a few options that are not yours are sent, picked at random: they rule those options out for certain, and never show your answer.',
    filterLabel: (count) => `Find your answer among the ${count} options`,
    filterCount: (shown, count) => `${shown} of ${count} options shown`,
    noEpsilon: 'the options sent as “not yours” are never your answer, so the report rules them out for certain; no ε bounds what that reveals.',
    grrLabel: 'Option sent',
    grrExplanation: 'This may or may not be your answer.',
    unaryLabel: 'Options sent as “yes”',
    unaryExplanation: 'A yes may not be yours, and yours may be a no.',
    negativeLabel: 'Options sent as “not yours”',
    negativeExplanation: 'These were picked at random.',
    technicalDetails: 'Technical details',
    mechanismItem: (mechanism, epsilon) => `Mechanism: ${mechanism}, ${epsilon}.`,
    probabilitiesItem: (p, q) => `p = ${p}, q = ${q}.`,
  },
}, {
  fr: () => import('./survey-texts.fr.js'),  // only for a French survey
});
