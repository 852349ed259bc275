// The words of ranges.js: a range from one edge to the next. The dashboard
// and the creation page stay in English (they never set a language).
import { texts } from '../../shared/i18n.js';

export const t = texts({
  en: {
    range: (low, high) => `${low} to ${high}`,
  },
  fr: {
    range: (low, high) => `${low} à ${high}`,
  },
});
