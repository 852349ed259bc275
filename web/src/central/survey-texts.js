// The survey page's words for questions answered in confidence (central/survey.js).
import { texts } from '../shared/i18n.js';

export const t = texts({
  en: {
    inConfidence: 'Answered in confidence',
    trustCentral: 'The organisation receives your answer as you give it and keeps it confidential. ' +
      'It publishes only statistics of everyone’s answers with random noise added, so no published number reveals your answer.',
    confidenceLine: ' The organisation sees this answer; it publishes only statistics with added noise.',
    sentInConfidence: 'Sent as you gave it, in confidence',
    confidentialExplanation: 'This answer is not randomised: the organisation receives it as it is and keeps it confidential. ' +
      'Only statistics of everyone’s answers, with random noise added, are published, so no published number reveals your answer.',
    confidentialBudget: (epsilon) => `Answered in confidence (central differential privacy): everything published about this question together spends at most ${epsilon}, its publication budget.`,
    confidentialCount: 'Epsilon bounds what the releases reveal about one respondent’s answer; who answered (the number of respondents) is not hidden.',
  },
}, {
  // French only for French surveys: a chunk of its own, loaded with the definition.
  fr: () => import('./survey-texts.fr.js'),
});
