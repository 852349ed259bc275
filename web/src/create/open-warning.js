import { formatInteger } from '../shared/format.js';
import { isOpen } from '../shared/open.js';
import { createKind } from './kinds.js';

// What the builder says about the questions asked openly (shared/open.js) of
// a definition: they are not protected, and together they can identify a
// person. With two or more, how many combinations of answers there are (the
// product of their numbers of answers, each kind's openAnswerCount; a number
// has too many to count). Null when no question is asked openly, else
// {count, lines}.
export function openQuestionsWarning(questions) {
  const open = questions.filter(isOpen);
  if (open.length === 0) return null;
  const lines = ['Questions asked openly are not protected: each answer is sent as given, and several of them together ' +
    '(an age, a postcode, a job) can identify a person, and with them their other answers’ reports. ' +
    'The results hide counts of 1 to 4 respondents, but whoever holds the reports sees the open answers side by side.'];
  if (open.length >= 2) {
    const counts = open.map((question) => createKind(question.type).openAnswerCount?.(question) ?? null);
    const countable = counts.filter((count) => count !== null);
    // The combinations of two or more open choices (one choice alone is its options).
    if (countable.length >= 2) {
      const product = countable.reduce((total, count) => total * count, 1);
      const factors = countable.map(formatInteger).join(' × ');
      lines.push(`${formatInteger(product)} possible combinations of the open answers${counts.length > countable.length ? ' to the choices' : ''} (${factors}): ` +
        'the more there are for the respondents you expect, the more people are alone in theirs.');
    }
    if (countable.length < counts.length) {
      lines.push('Numbers asked openly make nearly every combination unique: ask ranges (a choice among options) instead.');
    }
  }
  return { count: open.length, lines };
}
