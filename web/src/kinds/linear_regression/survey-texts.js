// The model (linear regression) kind's words on the survey page.
import { texts } from '../../shared/i18n.js';

export const t = texts({
  en: {
    and: (first, last) => `${first} and ${last}`,
    listSeparator: ', ',
    questionOne: (number) => `question ${number}`,
    questionMany: (numbers) => `questions ${numbers}`,
    intercept: 'intercept',
    explanation: (variables, numbers, target) => `Your answers to ${variables}${numbers ? ` (${numbers})` : ''} also help train a model of ${target}. ` +
      'Your device computes how the current model should change for your answers, sends one of those numbers with random noise added, ' +
      'and the organisers only learn the average over many people. This number is sent on top of those questions’ own reports, ' +
      'so it adds a little to what your report as a whole can reveal.',
    hint: 'There is nothing to answer here. When you prepare your report, this page first fetches the model’s current state from the server ' +
      '(it is public, the same for everyone; nothing about you is sent). If you skip any of those questions, nothing is sent for the model either.',
    detailsSummary: 'How the model is trained',
    detailsModel: (formula) => `The model: ${formula}, each variable scaled to the range −1 to 1 by its question’s range.`,
    detailsRounds: (batch, clip, mechanism, epsilon) => `It is trained in rounds${batch ? ` of ${batch} respondents` : ''}: each respondent’s device computes the gradient of the squared error ` +
      `of the current model at their own answers, clips each component to ±${clip}, and sends one component, chosen at random ` +
      `(independently of the answers), perturbed by ${mechanism} at ε = ${epsilon}. When a round is complete the server averages each component and takes one gradient step.`,
    detailsPrivacy: (epsilon) => `Privacy: the model’s ${epsilon} adds to the budgets of the questions it uses, which are also reported on their own.`,
    unansweredNumbers: (text, numbers) => `The model question “${text}” is built from your answers to ${numbers}: answer all of them (not skipped) to include it.`,
    unansweredVariables: (text, variables) => `The model question “${text}” is built from your answers to ${variables}: answer all of them (not skipped) to include it.`,
    noEpsilon: 'one number computed from your answers is sent with random noise; no ε bounds what it reveals.',
    answerInWords: 'nothing to answer: computed from your answers to the questions it uses',
    renewed: (text, round) => `The model “${text}” moved on to its next round before your report arrived, so the server could not accept ` +
      `the model’s part of it. Your device has made a new one for round ${round} from the same answers; the rest of your report is unchanged. ` +
      'Your first model report did reach the server, so sending this one reveals a little more about your answers than one report would.',
    renewedComplete: (text) => `The model “${text}” finished its training before your report arrived, so the server no longer takes ` +
      'the model’s part of it. Nothing is sent for the model now; the rest of your report is unchanged.',
    valueComplete: 'nothing: the model has finished its training',
    valueScore: (round, value) => `one number about how far the model’s prediction is from your answer, ${value} with noise added (round ${round}, held out to test the model)`,
    explanationScore: 'The model has finished training. Your device worked out how far its prediction is from your own answer (the squared difference) and added random noise to it: ' +
      'on its own it says little; the organisers only use the average over many people, to tell how well the model predicts people it was not trained on.',
    detailsScore: (round, target, mechanism, epsilon, value) => `Round ${round} is held out: (prediction − ${target})², on the scaled variables, the prediction kept within the range of ${target}, ` +
      `between 0 and 4, sent as that number divided by 2 minus 1, with noise by ${mechanism} at ${epsilon}; the value sent is exactly ${value}.`,
    explanationComplete: 'The model has done all its rounds and takes no more reports, so nothing is computed or sent for it. Your other answers are sent as shown.',
    badComponent: (question, component, components) => `question ${question}: the report's component ${component} is not one of the model's ${components}`,
    label: 'Sent for the model',
    valueFeature: (round, name, value) => `one number about “${name}”, ${value} with noise added (round ${round})`,
    valueBase: (round, value) => `one number about the model’s base value, ${value} with noise added (round ${round})`,
    explanationReport: 'Your device worked out how the model should change to fit your answers, kept one of those numbers (chosen at random, whatever your answers) ' +
      'and added random noise to it: on its own it says little; the organisers only use the average over many people.',
    technicalDetails: 'Technical details',
    detailsRound: (round, batch) => `Round ${round}: the report counts only towards this round of training${batch ? ` (${batch} reports per round)` : ''}.`,
    detailsComponent: (component, name, components, target, clip) => `Component ${component} (${name}; the model has ${components}, numbered from 0, the intercept first): ` +
      `the gradient of (${target} − model)² at your answers, on the scaled variables, clipped to ±${clip} and divided by ${clip}. ` +
      'Which component is sent was drawn at random, independently of your answers.',
    detailsNoise: (mechanism, epsilon, value) => `Noise: ${mechanism} at ${epsilon}; the value sent is exactly ${value}, your component plus noise that is zero on average.`,
  },
}, {
  fr: () => import('./survey-texts.fr.js'),  // only for a French survey
});
