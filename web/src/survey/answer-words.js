import { formatNumber } from '../shared/format.js';
import { surveyKind } from './kinds.js';
import { t } from './texts.js';

// An answer in words, as its kind says it (answerInWords): for the review of
// the answers and for an answer sent in confidence. A kind without words for
// it (or that cannot read it) gives the number, or "answered".
export function answerWords(question, answer) {
  const inWords = surveyKind(question.type).answerInWords;
  if (typeof inWords === 'function') {
    try {
      return inWords(question, answer);
    } catch {
      // fall through
    }
  }
  return typeof answer === 'number' ? formatNumber(answer) : t('answered');
}
