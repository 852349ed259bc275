// The words of a typed number (number-input.js) and of a question answered by
// a number in a range (range-answer.js). Numbers come pre-formatted in the
// page's locale; the creation page and the dashboard never set a language, so
// they read the English.
import { texts } from './i18n.js';

export const t = texts({
  en: {
    // number-input.js
    example: 'such as 1.5 or 1,5',
    enterNumber: 'Enter a number.',
    // `decimal` in the page's locale ("1,5" in French), `point` with a decimal point ("1.5"), which is never ambiguous.
    ambiguous: (typed, thousands, decimal, point) => `“${typed}” could mean ${thousands} or ${point}: write it without a thousands separator, or with a decimal point (such as ${point}).`,
    separators: (typed, count, example) => `“${typed}” has ${count} separators: write one decimal point or comma (${example}), without thousands separators.`,
    notNumber: (typed, example) => `“${typed}” is not a number: write digits with at most one decimal point or comma (${example}).`,
    enterWhole: 'Enter a whole number.',
    notWhole: (typed) => `“${typed}” is not a whole number: write digits only (such as 12), without separators.`,
    tooLarge: 'This number is too large.',
    // range-answer.js
    range: (low, high) => `${low} to ${high}`,
    anyValue: (range) => `Any value from ${range}.`,
    wholeFrom: (range) => `A whole number from ${range}.`,
    stepFrom: (range, step) => `A value from ${range}, in steps of ${step}.`,
    outside: (value, range) => `${value} is outside the range: enter a value from ${range}.`,
    offStep: (value, step, examples) => `${value} is not one of the allowed values: answers go in steps of ${step} (for example ${examples}).`,
    or: ' or ',
    slide: 'Slide to your answer',
    typeIt: 'Or type it',
    typeItIn: (unit) => `Or type it (${unit})`,
    notAnswered: 'not answered yet',
    unanswered: 'A number must lie within the range shown.',
  },
  fr: {
    example: 'par exemple 1,5 ou 1.5',
    enterNumber: 'Saisissez un nombre.',
    ambiguous: (typed, thousands, decimal, point) => `« ${typed} » peut vouloir dire ${thousands} ou ${decimal} : écrivez ${thousands} sans séparateur de milliers, ou ${point} avec un point décimal.`,
    separators: (typed, count, example) => `« ${typed} » contient ${count} séparateurs : écrivez une seule virgule ou un seul point décimal (${example}), sans séparateur de milliers.`,
    notNumber: (typed, example) => `« ${typed} » n’est pas un nombre : écrivez des chiffres avec au plus une virgule ou un point décimal (${example}).`,
    enterWhole: 'Saisissez un nombre entier.',
    notWhole: (typed) => `« ${typed} » n’est pas un nombre entier : écrivez seulement des chiffres (par exemple 12), sans séparateur.`,
    tooLarge: 'Ce nombre est trop grand.',
    range: (low, high) => `${low} à ${high}`,
    anyValue: (range) => `Toute valeur de ${range}.`,
    wholeFrom: (range) => `Un nombre entier de ${range}.`,
    stepFrom: (range, step) => `Une valeur de ${range}, par pas de ${step}.`,
    outside: (value, range) => `${value} est hors de la plage : saisissez une valeur de ${range}.`,
    offStep: (value, step, examples) => `${value} ne fait pas partie des valeurs permises : les réponses vont par pas de ${step} (par exemple ${examples}).`,
    or: ' ou ',
    slide: 'Faites glisser jusqu’à votre réponse',
    typeIt: 'Ou saisissez-la',
    typeItIn: (unit) => `Ou saisissez-la (${unit})`,
    notAnswered: 'pas encore de réponse',
    unanswered: 'Un nombre doit se trouver dans la plage indiquée.',
  },
});
