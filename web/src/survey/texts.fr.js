// The survey page's own fixed text in French (survey/texts.js holds the English
// and loads this file only for a French survey: shared/i18n.js loadTranslations).
export default {
  loading: 'Chargement du questionnaire…',
  skipLink: 'Aller aux questions',
  previewBanner: 'Aperçu : rien de ce que vous répondez ici n’est envoyé.',
  previewSend: 'L’envoi est désactivé dans un aperçu : rien de ce que vous répondez ne quitte cette page ni n’est enregistré.',
  closedTitle: 'Ce questionnaire est fermé',
  closedDefault: 'Ce questionnaire n’accepte plus de réponses.',
  answeredTitle: 'Vous avez déjà répondu à ce questionnaire',
  answeredOn: (date) => `Vous avez déjà répondu à ce questionnaire sur cet appareil le ${date}.`,
  answeredMore: 'Merci. Votre rapport a été envoyé ; cette page ne propose plus les questions.',
  seeResults: 'Voir les résultats',
  inviteTitle: 'Ce questionnaire est sur invitation',
  inviteNeeded: 'Il vous faut votre code d’invitation pour répondre. Saisissez-le ici : ce navigateur l’échange maintenant contre un laissez-passer anonyme, gardé sur cet appareil, ' +
    'et votre rapport est ensuite envoyé avec ce laissez-passer, jamais avec votre code.',
  inviteLabel: 'Code d’invitation',
  inviteCheck: 'Utiliser mon invitation',
  inviteChecking: 'Vérification de votre invitation…',
  inviteEmpty: 'Veuillez saisir votre code d’invitation.',
  inviteInvalid: 'Cette invitation a déjà servi, ou son code n’est pas un code de ce questionnaire. Si elle avait servi dans ce navigateur, cette page l’aurait gardée et afficherait vos questions : ' +
    'elle a peut-être été ouverte dans un autre navigateur ou sur un autre appareil. Vérifiez que le code est bien saisi, ou demandez une nouvelle invitation aux organisateurs.',
  issuanceFailed: (message) => `Votre invitation n’a pas encore pu être échangée : ${message} Rien n’est perdu : réessayer envoie la même demande de ce navigateur.`,
  retry: 'Réessayer',
  unverifiedTitle: 'Cette page s’arrête ici',
  unverifiedMessage: 'La réponse du serveur pour votre invitation ne correspond pas à la clé publiée de ce questionnaire : cette page ne peut donc pas garantir que vos réponses resteront séparées de votre invitation. ' +
    'Ne répondez pas sur cette page ; prévenez les organisateurs.',
  unverifiedDetail: (reason, fingerprint) => `La preuve VOPRF (RFC 9497, ristretto255-SHA512) jointe à l’évaluation du serveur ne se vérifie pas avec la clé publique du questionnaire ` +
    `(empreinte ${fingerprint}) : ${reason}`,
  keptHeading: 'Votre invitation est gardée dans ce navigateur',
  keptBody: 'Votre code d’invitation a été échangé contre un laissez-passer anonyme, gardé dans ce navigateur sur cet appareil. Répondez ici, dans ce navigateur : ' +
    'si les données de ce navigateur sont effacées avant l’envoi de votre rapport, l’invitation est perdue et son code ne peut plus servir.',
  linkHeading: 'Ce que les organisateurs peuvent relier, et ce qu’ils ne peuvent pas',
  linkCannot: 'Ils ne peuvent pas savoir quelle personne invitée a envoyé quelles réponses : votre rapport porte le laissez-passer, jamais votre code, et le serveur n’a jamais vu ce laissez-passer quand il a pris votre code.',
  linkCan: 'Ils peuvent voir quand cette page a été ouverte et quand des réponses ont été envoyées, et l’adresse réseau d’où elles viennent, comme tout site web ; et tout ce que les questions elles-mêmes demandent. ' +
    'Si vous êtes seul à répondre à ce moment-là, les heures seules peuvent vous désigner.',
  keptTechnical: (fingerprint) => 'Jetons aveugles : une fonction pseudo-aléatoire aveugle vérifiable (VOPRF, RFC 9497) avec ristretto255 et SHA-512. ' +
    'Ce navigateur a tiré un jeton au hasard, l’a envoyé masqué avec votre code, a vérifié la preuve du serveur avec la clé publique du questionnaire ' +
    `(empreinte ${fingerprint}) et a démasqué la réponse. Votre rapport porte le jeton et cette valeur : le serveur peut les vérifier, mais il ne les a jamais vus.`,
  keyUnknown: 'inconnue',
  tokenUsed: 'Cette invitation a déjà servi à envoyer un rapport (peut-être celui-ci : un envoi précédent a pu arriver au serveur sans que sa réponse revienne). ' +
    'Votre rapport est gardé sur cet appareil ; si vous avez une autre invitation, ouvrez son lien ici pour l’envoyer.',
  tokenInvalid: 'Le serveur n’accepte pas le laissez-passer d’invitation de ce navigateur pour ce questionnaire. Votre rapport est gardé sur cet appareil ; demandez une nouvelle invitation aux organisateurs et ouvrez son lien ici pour l’envoyer.',
  tokenMissing: 'Ce navigateur n’a plus d’invitation pour ce questionnaire : ouvrez à nouveau votre lien d’invitation.',
  tokenSendNote: 'Votre rapport est envoyé avec le laissez-passer d’invitation anonyme de ce navigateur, jamais avec votre code d’invitation.',
  modelComplete: 'Le modèle du questionnaire a terminé son entraînement et ne prend plus de rapports. Rechargez la page pour envoyer vos autres réponses sans lui.',
  prepare: 'Préparer mon rapport',
  reviewHeading: 'Vérifiez vos réponses',
  reviewIntro: 'Vos réponses en clair. Modifiez-les maintenant si besoin : une fois préparé, votre rapport est figé et ne peut pas être refait.',
  change: 'Modifier',
  notAnswered: 'pas encore de réponse',
  skipped: 'question passée',
  progress: (answered, total) => `${answered} sur ${total} répondues`,
  leaveWarning: 'Votre rapport préparé n’a pas encore été envoyé.',
  sentHeading: 'Merci : votre rapport a été envoyé',
  otherTab: 'Vous avez préparé ce rapport dans un autre onglet ou plus tôt sur cet appareil. ',
  privacyHeading: 'Ce qui quitte cet appareil',
  preparingProtection: 'Préparation de la protection de la vie privée… Vous pouvez répondre aux questions en attendant.',
  protectionFailed: (message) => `La protection de la vie privée n’a pas pu être chargée (${message}). Vérifiez votre connexion et rechargez la page.`,
  privacyLocal: 'Vos vraies réponses ne quittent jamais cet appareil. Chaque réponse est rendue aléatoire ici, dans votre navigateur, avant tout envoi : ' +
    'le rapport envoyé aurait pu venir d’autres réponses, personne ne peut être sûr de ce que vous avez répondu. ' +
    'Vous verrez exactement ce qui est envoyé avant que rien ne parte. Pour chaque question :',
  privacyMixed: 'Les réponses rendues aléatoires sur votre appareil ne le quittent jamais : seul un rapport aléatoire est envoyé. ' +
    'Les réponses données en confidence sont envoyées telles quelles et restent confidentielles ; seules des statistiques bruitées sont publiées. ' +
    'Vous verrez tout votre rapport avant que rien ne parte. Pour chaque question :',
  questionN: (n) => `Question ${n} : `,
  technicalDetails: 'Détails techniques',
  centralWords: 'envoyée telle quelle et gardée confidentielle ; seules des statistiques bruitées sont publiées.',
  randomisedWords: 'rendue aléatoire sur cet appareil avant l’envoi.',
  closedAt: (date) => `Ce questionnaire a fermé le ${date} : il n’accepte plus de réponses.`,
  reviewButton: 'Vérifier mes réponses',
  reviewLocked: 'Vos réponses, affichées sur cette page seulement : elles ne sont jamais envoyées ni enregistrées. Votre rapport ci-dessous a été préparé à partir d’elles et il est maintenant figé.',
  changeWhich: (n) => ` la question ${n}`,
  answered: 'répondu',
  correctQuestions: (count, list) => `Veuillez corriger ${count === 1 ? 'la question' : 'les questions'} ${list} avant de préparer votre rapport : ` +
    'le nombre saisi n’est pas accepté (le message à côté du champ dit pourquoi et donne l’intervalle permis).',
  notAnsweredYet: 'Pas encore de réponse.',
  stillUnanswered: (list) => `Encore sans réponse : ${list}.`,
  answerEvery: (count, list) => `Veuillez répondre à toutes les questions avant de préparer votre rapport (sans réponse : ${count === 1 ? 'question' : 'questions'} ${list}).`,
  notPrepared: (message) => `Votre rapport n’a pas pu être préparé : ${message}`,
  cannotRenew: 'Cet onglet n’a plus vos réponses (elles ne sont jamais enregistrées) : ce rapport ne peut donc pas être mis à jour. Rechargez la page pour répondre à nouveau.',
  renewedDefault: (question) => `L’état partagé de « ${question} » a changé avant l’arrivée de votre rapport : sa partie du rapport a été refaite à partir des mêmes réponses, ` +
    'le reste est inchangé. Votre premier rapport est bien arrivé au serveur : cela dépense donc une seconde fois le budget de confidentialité de cette question.',
  reportHeading: 'Votre rapport rendu aléatoire',
  reportHeadingMixed: 'Votre rapport',
  labelled: (label) => `${label}\u00a0: `,
  none: 'aucune',
  // A comma is the decimal separator in French: values are set apart with a semicolon.
  valueSeparator: '\u00a0; ',
  restoredPrefix: 'Vous avez préparé ce rapport plus tôt dans cet onglet, dans un autre onglet ou plus tôt sur cet appareil. ',
  fixedNote: 'Ce rapport est maintenant figé : en préparer un autre et choisir entre les deux affaiblirait votre confidentialité, il ne peut donc pas être refait.',
  skippedNote: (count, list) => count === 1
    ? `Vous avez passé la question ${list} : aucune réponse n’est envoyée pour elle, et les organisateurs verront seulement qu’elle a été passée.`
    : `Vous avez passé les questions ${list} : aucune réponse n’est envoyée pour elles, et les organisateurs verront seulement qu’elles ont été passées.`,
  skippedLabel: 'Passée',
  notSent: 'non envoyée',
  skippedExplanation: 'Le rapport n’a aucune entrée pour cette question ; les organisateurs voient qu’elle a été passée, jamais une réponse.',
  exactlySent: 'Exactement ce qui sera envoyé (JSON)',
  send: 'Envoyer',
  sending: 'Envoi…',
  sendingStatus: 'Envoi de votre rapport…',
  received: 'Votre rapport a été reçu et enregistré. Merci !',
  notAccepted: (message) => `Votre rapport n’a pas été accepté : ${message}`,
  trustHeading: 'Qui voit vos réponses',
  onDevice: 'Rendue aléatoire sur votre appareil',
  questionCount: (count) => (count === 1 ? '1 question' : `${count} questions`),
  trustLocal: 'Votre vraie réponse ne quitte jamais cet appareil : elle est rendue aléatoire ici, dans votre navigateur, et seul le rapport aléatoire est envoyé.',
  trustHint: 'Vous verrez exactement ce qui est envoyé, pour chaque question, avant que rien ne quitte cet appareil.',
  optionalTag: ' (facultative)',
  skipQuestion: 'Passer cette question',
  skipNote: 'Cette question est facultative. Si vous la passez, aucune réponse n’est envoyée pour elle, mais les organisateurs verront qu’elle a été passée.',
  skipHint: 'Pour ne pas répondre à une question facultative, cochez « Passer cette question ».',
  technicalIntroduction: 'Le budget de confidentialité ε (epsilon) de chaque question borne ce que son rapport peut révéler de votre réponse : plus il est petit, plus c’est confidentiel. ' +
    'Les budgets des questions s’additionnent.',
  wholeSurvey: 'Questionnaire entier : ',
  centralBudget: ' (réponse confidentielle : le budget de tout ce qui est publié à son sujet)',
  noTotal: 'pas d’epsilon formel, car au moins une question n’en a pas.',
  total: (epsilon) => `${epsilon} (les budgets des questions s’additionnent).`,
  askedOpenly: 'Posée ouvertement',
  openGroup: 'Posées ouvertement : envoyées telles que vous les donnez',
  trustOpen: 'Ces réponses ne sont pas rendues aléatoires : elles sont envoyées telles que vous les donnez, l’organisation les voit, et aucun budget de confidentialité ne les protège. ' +
    'Elles servent à ventiler les résultats par groupe ; les effectifs de moins de 5 personnes ne sont pas publiés.',
  privacyRandomised: 'Les réponses rendues aléatoires sur votre appareil ne le quittent jamais : seul un rapport aléatoire est envoyé, qui aurait pu venir d’autres réponses. ' +
    'Vous verrez tout votre rapport avant que rien ne parte. Pour chaque question :',
  privacyOpenStatement: 'Les réponses aux questions posées ouvertement sont envoyées telles que vous les donnez : elles ne sont pas protégées. ' +
    'Vos réponses rendues aléatoires gardent leur budget de confidentialité (ε) quelles que soient vos réponses ouvertes : chacune est rendue aléatoire sur cet appareil séparément, donc vos réponses ouvertes n’affaiblissent pas cette borne.',
  openWords: 'envoyée telle que vous la donnez : ni rendue aléatoire, ni protégée.',
  openLine: ' Cette réponse est envoyée telle que vous la donnez : elle n’est ni rendue aléatoire, ni protégée.',
  sentOpenly: 'Envoyée telle que vous l’avez donnée (posée ouvertement)',
  openExplanation: 'Cette réponse n’est pas rendue aléatoire : l’organisation la reçoit telle quelle, et aucun budget de confidentialité ne la protège. Vos réponses rendues aléatoires gardent leur budget quelle que soit cette réponse.',
  notProtected: 'non protégée',
  openBudget: ' (posée ouvertement : pas d’ε, non comptée dans le total)',
  totalWithOpen: (epsilon) => `${epsilon} pour les questions rendues aléatoires (leurs budgets s’additionnent) ; les questions posées ouvertement ne sont pas protégées et ne sont pas comptées.`,
};
