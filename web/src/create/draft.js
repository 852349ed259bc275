// The builder's draft, kept on this device (localStorage) so that a reload
// or a closed tab does not lose it: the survey's fields and each question
// editor's values (which the editors take back as their initial values).
const KEY = 'deniable.createDraft.v1';

export function loadDraft() {
  try {
    const text = localStorage.getItem(KEY);
    if (!text) return null;
    const draft = JSON.parse(text);
    return draft && typeof draft === 'object' && Array.isArray(draft.questions) && draft.questions.length > 0 ? draft : null;
  } catch {
    return null;  // storage disabled or a damaged draft: start afresh
  }
}

export function saveDraft(draft) {
  try {
    localStorage.setItem(KEY, JSON.stringify(draft));
  } catch {
    // storage disabled or full: the builder keeps working without a draft
  }
}

export function clearDraft() {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // nothing to clear
  }
}
