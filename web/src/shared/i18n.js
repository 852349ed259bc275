// The survey page's fixed text in the survey's language ("language": a BCP 47
// tag in the definition; absent = English), chosen by its primary subtag.
// Numbers are formatted for the same language (format.js setNumberLocale).
// English is the default and the fallback for any missing entry.

const DICTIONARIES = {
  en: {
    loading: 'Loading the survey…',
    skipLink: 'Skip to the questions',
    previewBanner: 'Preview: nothing you answer here is sent.',
    previewSend: 'Sending is turned off in a preview: nothing you answer here leaves this page or is stored.',
    closedTitle: 'This survey is closed',
    closedDefault: 'This survey no longer accepts answers.',
    answeredTitle: 'You already answered this survey',
    answeredOn: (date) => `You already answered this survey on this device on ${date}.`,
    answeredMore: 'Thank you. Your report was sent; this page does not offer the questions again.',
    seeResults: 'See the results so far',
    inviteTitle: 'This survey is by invitation',
    inviteNeeded: 'You need your invitation code to answer. Enter it here before answering; it is checked now and used only when you send your report.',
    inviteLabel: 'Invitation code',
    inviteCheck: 'Check my code',
    inviteChecking: 'Checking your code…',
    inviteEmpty: 'Please enter your invitation code.',
    inviteOk: 'Your invitation code is valid. It is used once, when you send your report.',
    prepare: 'Prepare my report',
    reviewHeading: 'Check your answers',
    reviewIntro: 'Your answers in words. Once you prepare your report it is fixed and the answers cannot be changed, so check them now.',
    change: 'Change',
    notAnswered: 'not answered yet',
    skipped: 'skipped',
    progress: (answered, total) => `${answered} of ${total} answered`,
    leaveWarning: 'Your prepared report has not been sent yet.',
    sentHeading: 'Thank you: your report was sent',
    otherTab: 'You prepared this report in another tab or earlier on this device. ',
    privacyHeading: 'What leaves this device',
    privacyLocal: 'Your true answers never leave this device. Each answer is randomised here, in your browser, before anything is sent, ' +
      'so the report that is sent could have come from other answers: nobody can be sure what you answered. ' +
      'You will see exactly what is sent before anything leaves. For each question:',
    privacyMixed: 'Answers to questions randomised on your device never leave it: only a randomised report is sent, which could have come from other answers. ' +
      'Answers given in confidence are sent as you give them and kept confidential; only statistics with random noise added are published. ' +
      'You will see your whole report before anything leaves. For each question:',
    questionN: (n) => `Question ${n}: `,
    technicalDetails: 'Technical details',
    centralWords: 'sent as you give it and kept confidential; only statistics with random noise added are published.',
    randomisedWords: 'randomised on this device before it is sent.',
    grrWords: (p, q) => `one option is sent: your true option ${p} of the time, each other option ${q} of the time.`,
    unaryWords: (p, q) => `each option is sent as a yes or a no: your true option is a yes ${p} of the time, each other option ${q} of the time.`,
    negativeWords: (p, q) => `a few options are sent as “not yours”, picked at random: your true option is among them ${p} of the time, each other option ${q} of the time.`,
    negativePureWords: 'a few options that are not yours are sent, picked at random: they rule those options out for certain, and never show your answer.',
  },
  fr: {
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
    inviteNeeded: 'Il vous faut votre code d’invitation pour répondre. Saisissez-le ici avant de répondre ; il est vérifié maintenant et utilisé seulement à l’envoi de votre rapport.',
    inviteLabel: 'Code d’invitation',
    inviteCheck: 'Vérifier mon code',
    inviteChecking: 'Vérification de votre code…',
    inviteEmpty: 'Veuillez saisir votre code d’invitation.',
    inviteOk: 'Votre code d’invitation est valide. Il est utilisé une fois, à l’envoi de votre rapport.',
    prepare: 'Préparer mon rapport',
    reviewHeading: 'Vérifiez vos réponses',
    reviewIntro: 'Vos réponses en clair. Une fois le rapport préparé, il est figé et les réponses ne peuvent plus changer : vérifiez-les maintenant.',
    change: 'Modifier',
    notAnswered: 'pas encore de réponse',
    skipped: 'question passée',
    progress: (answered, total) => `${answered} sur ${total} répondues`,
    leaveWarning: 'Votre rapport préparé n’a pas encore été envoyé.',
    sentHeading: 'Merci : votre rapport a été envoyé',
    otherTab: 'Vous avez préparé ce rapport dans un autre onglet ou plus tôt sur cet appareil. ',
    privacyHeading: 'Ce qui quitte cet appareil',
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
    grrWords: (p, q) => `une option est envoyée : votre vraie option ${p} du temps, chacune des autres ${q} du temps.`,
    unaryWords: (p, q) => `chaque option est envoyée comme un oui ou un non : votre vraie option est un oui ${p} du temps, chacune des autres ${q} du temps.`,
    negativeWords: (p, q) => `quelques options sont envoyées comme « pas la vôtre », tirées au hasard : votre vraie option en fait partie ${p} du temps, chacune des autres ${q} du temps.`,
    negativePureWords: 'quelques options qui ne sont pas la vôtre sont envoyées, tirées au hasard : elles ne montrent jamais votre réponse.',
  },
};

let language = 'en';
let dictionary = DICTIONARIES.en;

// Chooses the dictionary for a BCP 47 tag; returns the tag used for the page's lang.
export function setLanguage(tag) {
  const valid = typeof tag === 'string' && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(tag) ? tag : 'en';
  language = valid;
  dictionary = DICTIONARIES[valid.split('-')[0].toLowerCase()] ?? DICTIONARIES.en;
  return valid;
}

export function currentLanguage() {
  return language;
}

// The fixed text `key` (a function's result when given arguments).
export function t(key, ...args) {
  const entry = dictionary[key] ?? DICTIONARIES.en[key];
  return typeof entry === 'function' ? entry(...args) : entry;
}

export function formatDate(date) {
  try {
    return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'short' }).format(date);
  } catch {
    return date.toISOString();
  }
}
