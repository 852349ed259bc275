// central/survey-texts.js in French (loaded only for a French survey:
// shared/i18n.js loadTranslations).
export default {
  inConfidence: 'Réponse confidentielle',
  trustCentral: 'L’organisation reçoit votre réponse telle que vous la donnez et la garde confidentielle. ' +
    'Elle ne publie que des statistiques des réponses de tous, auxquelles un bruit aléatoire est ajouté : aucun chiffre publié ne révèle votre réponse.',
  confidenceLine: ' L’organisation voit cette réponse ; elle ne publie que des statistiques auxquelles un bruit est ajouté.',
  sentInConfidence: 'Envoyée telle que vous l’avez donnée, en confidence',
  confidentialExplanation: 'Cette réponse n’est pas rendue aléatoire : l’organisation la reçoit telle quelle et la garde confidentielle. ' +
    'Seules des statistiques des réponses de tous, avec un bruit aléatoire ajouté, sont publiées : aucun chiffre publié ne révèle votre réponse.',
  confidentialBudget: (epsilon) => `Réponse confidentielle (confidentialité différentielle centrale) : tout ce qui est publié sur cette question dépense au plus ${epsilon}, son budget de publication.`,
  confidentialCount: 'Epsilon borne ce que les publications révèlent de la réponse d’une personne ; qui a répondu (le nombre de répondants) n’est pas caché.',
};
