// The survey page's own fixed text (the kinds' words are in their folders).
import { texts } from '../shared/i18n.js';

export const t = texts({
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
    inviteNeeded: 'You need your invitation code to answer. Enter it here: this browser exchanges it now for an anonymous pass, kept on this device, and your report is later sent with that pass, never with your code.',
    inviteLabel: 'Invitation code',
    inviteCheck: 'Use my invitation',
    inviteChecking: 'Checking your invitation…',
    inviteEmpty: 'Please enter your invitation code.',
    inviteInvalid: 'This invitation has already been used, or its code is not one of this survey’s. Had it been used in this browser, this page would still hold it and show your questions: ' +
      'it may have been opened in another browser or on another device. Check the code for typing mistakes, or ask the organisers for a new invitation.',
    issuanceFailed: (message) => `Your invitation could not be exchanged yet: ${message} Nothing is lost: trying again sends this browser’s same request.`,
    retry: 'Try again',
    unverifiedTitle: 'This page stops here',
    unverifiedMessage: 'The server’s answer for your invitation does not match this survey’s published key, so this page cannot make sure that your answers will be kept apart from your invitation. ' +
      'Do not answer on this page; tell the organisers.',
    unverifiedDetail: (reason, fingerprint) => `The VOPRF proof (RFC 9497, ristretto255-SHA512) that came with the server’s evaluation does not verify against the survey’s public key ` +
      `(fingerprint ${fingerprint}): ${reason}`,
    keptHeading: 'Your invitation is kept in this browser',
    keptBody: 'Your invitation code has been exchanged for an anonymous pass, kept in this browser on this device. Answer here, in this browser: ' +
      'if this browser’s data is cleared before you send your report, the invitation is lost, and its code cannot be used again.',
    linkHeading: 'What the organisers can and cannot link',
    linkCannot: 'They cannot tell which invitee sent which answers: your report carries the pass, never your code, and the server never saw the pass when it took your code.',
    linkCan: 'They can see when this page was opened and when answers were sent, and the network address they came from, as any website can; and whatever the questions themselves ask. ' +
      'If you are the only one answering at that time, the times alone may point to you.',
    keptTechnical: (fingerprint) => 'Blind tokens: a verifiable oblivious pseudorandom function (VOPRF, RFC 9497) with ristretto255 and SHA-512. ' +
      'This browser drew a random token, sent it blinded with your code, checked the server’s proof against the survey’s public key ' +
      `(fingerprint ${fingerprint}) and unblinded the answer. Your report carries the token and that value: the server can check them, but it has never seen them.`,
    keyUnknown: 'not known',
    tokenUsed: 'This invitation has already been used to send a report (perhaps this one: an earlier Send may have reached the server without its answer coming back). ' +
      'Your report is kept on this device; if you have another invitation, open its link here to send it.',
    tokenInvalid: 'The server does not accept this browser’s invitation pass for this survey. Your report is kept on this device; ask the organisers for a new invitation and open its link here to send it.',
    tokenMissing: 'This browser no longer holds an invitation for this survey: open your invitation link again.',
    tokenSendNote: 'Your report is sent with this browser’s anonymous invitation pass, never with your invitation code.',
    modelComplete: 'The survey’s model has finished its training and takes no more reports. Reload the page to send your other answers without it.',
    prepare: 'Prepare my report',
    reviewHeading: 'Check your answers',
    reviewIntro: 'Your answers in words. Change any of them now: once you prepare your report it is fixed, and it cannot be randomised again.',
    change: 'Change',
    notAnswered: 'not answered yet',
    skipped: 'skipped',
    progress: (answered, total) => `${answered} of ${total} answered`,
    leaveWarning: 'Your prepared report has not been sent yet.',
    sentHeading: 'Thank you: your report was sent',
    otherTab: 'You prepared this report in another tab or earlier on this device. ',
    privacyHeading: 'What leaves this device',
    preparingProtection: 'Preparing privacy protection… You can answer the questions meanwhile.',
    protectionFailed: (message) => `The privacy protection could not be loaded (${message}). Check your connection and reload the page.`,
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
    closedAt: (date) => `This survey closed on ${date}: it no longer accepts answers.`,
    reviewButton: 'Check my answers',
    reviewLocked: 'Your answers, shown on this page only: they are never sent or stored. Your report below was prepared from them and is now fixed.',
    changeWhich: (n) => ` question ${n}`,
    answered: 'answered',
    correctQuestions: (count, list) => `Please correct ${count === 1 ? 'question' : 'questions'} ${list} before preparing your report: ` +
      'the number typed is not accepted (the message next to the field says why and gives the range).',
    notAnsweredYet: 'Not answered yet.',
    stillUnanswered: (list) => `Still unanswered: ${list}.`,
    answerEvery: (count, list) => `Please answer every question before preparing your report (unanswered: ${count === 1 ? 'question' : 'questions'} ${list}).`,
    notPrepared: (message) => `Your report could not be prepared: ${message}`,
    cannotRenew: 'This tab no longer holds your answers (they are never stored), so this report cannot be updated: reload the page to answer again.',
    renewedDefault: (question) => `The shared state of “${question}” moved on before your report arrived, so its part of your report was made again from the same answers; ` +
      'the rest is unchanged. Your first report did reach the server, so this spends that question’s privacy budget once more.',
    reportHeading: 'Your randomised report',
    reportHeadingMixed: 'Your report',
    labelled: (label) => `${label}: `,
    none: 'none',
    valueSeparator: ', ',
    restoredPrefix: 'You prepared this report earlier in this tab, in another tab or earlier on this device. ',
    fixedNote: 'This report is now fixed: preparing another one and choosing between them would weaken your privacy, so it cannot be randomised again.',
    skippedNote: (count, list) => count === 1
      ? `You skipped question ${list}: no answer to it is sent, and the organisers will see only that it was skipped.`
      : `You skipped questions ${list}: no answer to them is sent, and the organisers will see only that they were skipped.`,
    skippedLabel: 'Skipped',
    notSent: 'not sent',
    skippedExplanation: 'The report has no entry for this question; the organisers see that it was skipped, never an answer.',
    exactlySent: 'Exactly what will be sent (JSON)',
    send: 'Send',
    sending: 'Sending…',
    sendingStatus: 'Sending your report…',
    received: 'Your report was received and stored. Thank you!',
    notAccepted: (message) => `Your report was not accepted: ${message}`,
    trustHeading: 'Who sees your answers',
    onDevice: 'Randomised on your device',
    questionCount: (count) => (count === 1 ? '1 question' : `${count} questions`),
    trustLocal: 'Your true answer never leaves this device: it is randomised here, in your browser, and only the randomised report is sent.',
    trustHint: 'You will see exactly what is sent, for every question, before anything leaves this device.',
    optionalTag: ' (optional)',
    skipQuestion: 'Skip this question',
    skipNote: 'This question is optional. If you skip it, no answer to it is sent, but the organisers will see that it was skipped.',
    skipHint: 'To leave out an optional question, tick “Skip this question”.',
    technicalIntroduction: 'Each question’s privacy budget ε (epsilon) bounds how much its report can reveal about your answer: smaller means more private. ' +
      'The budgets of the questions add up.',
    wholeSurvey: 'Whole survey: ',
    centralBudget: ' (answered in confidence: the budget of everything published about it)',
    noTotal: 'no formal epsilon, because at least one question has none.',
    total: (epsilon) => `${epsilon} (the questions' budgets add up).`,
    // Questions asked openly (survey/open.js).
    askedOpenly: 'Asked openly',
    openGroup: 'Asked openly: sent as you give them',
    trustOpen: 'These answers are not randomised: they are sent as you give them, the organisation sees them, and no privacy budget protects them. ' +
      'They are used to break the results down by group; counts of fewer than 5 people are not published.',
    privacyRandomised: 'Answers to questions randomised on your device never leave it: only a randomised report is sent, which could have come from other answers. ' +
      'You will see your whole report before anything leaves. For each question:',
    privacyOpenStatement: 'Answers to questions asked openly are sent as you give them: they are not protected. ' +
      'Your randomised answers keep their privacy budget (ε) whatever your open answers are: each is randomised on this device on its own, so your open answers do not weaken that bound.',
    openWords: 'sent as you give it: not randomised and not protected.',
    openLine: ' This answer is sent as you give it: it is not randomised and not protected.',
    sentOpenly: 'Sent as you gave it (asked openly)',
    openExplanation: 'This answer is not randomised: the organisation receives it as it is, and no privacy budget protects it. Your randomised answers keep their privacy budget whatever this answer is.',
    notProtected: 'not protected',
    openBudget: ' (asked openly: no ε, not counted in the total)',
    // Save and resume (survey/resume.js).
    answersStored: 'Your answers so far are stored on this device only, until your report is prepared, so that you can leave and come back to them. They are not sent.',
    answersRestored: 'Your answers from before are back. They are stored on this device only, until your report is prepared; they are not sent.',
    clearAnswers: 'Clear them',
    // Conditions (show_if): said to screen readers as a question comes or goes.
    questionNowAsked: (number, text) => `Question ${number} is now asked: “${text}”.`,
    questionNoLongerAsked: (number) => `Question ${number} is no longer asked.`,
    answersCleared: 'Your answers were cleared from this device.',
    totalWithOpen: (epsilon) => `${epsilon} for the randomised questions (their budgets add up); questions asked openly are not protected and not counted.`,
  },
}, {
  // French only for French surveys: a chunk of its own, loaded with the definition.
  fr: () => import('./texts.fr.js'),
});
