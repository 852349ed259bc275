// Questions "asked openly" (core/kinds/open/, "privacy": "open"): a
// demographic, a stratum or a consent, sent as given and counted exactly, so
// that randomised answers can be broken down by it. No randomisation and no ε
// protect it; the randomised questions keep theirs whatever the open answers
// are (each is randomised on the device on its own). A trust model, not a
// kind: categorical and numeric questions may have it (their kinds' create
// modules say so with `supportsOpen`). Every page tells such a question by
// this capability, never by its type:
//   a definition's question: "privacy": "open" (no "mechanism");
//   core.parseSurvey's summary and a results entry: privacy.trust "open";
//   a results entry: also "trust": "open".
export const OPEN = 'open';

export function isOpen(question) {
  if (!question) return false;
  return question.privacy === OPEN || question.privacy?.trust === OPEN || question.trust === OPEN;
}

// Counts of open answers from 1 to SMALL_COUNT - 1 are never published (the
// core's kSmallCellLimit, core/kinds/open/open_privacy.h).
export const SMALL_COUNT = 5;
