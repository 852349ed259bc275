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
  fr: {
    inConfidence: 'Réponse confidentielle',
    trustCentral: 'L’organisation reçoit votre réponse telle que vous la donnez et la garde confidentielle. ' +
      'Elle ne publie que des statistiques des réponses de tous, auxquelles un bruit aléatoire est ajouté : aucun chiffre publié ne révèle votre réponse.',
    confidenceLine: ' L’organisation voit cette réponse ; elle ne publie que des statistiques auxquelles un bruit est ajouté.',
    sentInConfidence: 'Envoyée telle que vous l’avez donnée, en confidence',
    confidentialExplanation: 'Cette réponse n’est pas rendue aléatoire : l’organisation la reçoit telle quelle et la garde confidentielle. ' +
      'Seules des statistiques des réponses de tous, avec un bruit aléatoire ajouté, sont publiées : aucun chiffre publié ne révèle votre réponse.',
    confidentialBudget: (epsilon) => `Réponse confidentielle (confidentialité différentielle centrale) : tout ce qui est publié sur cette question dépense au plus ${epsilon}, son budget de publication.`,
    confidentialCount: 'Epsilon borne ce que les publications révèlent de la réponse d’une personne ; qui a répondu (le nombre de répondants) n’est pas caché.',
  },
});
