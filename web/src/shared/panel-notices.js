// The notices at the head of a question's results panel: how many skipped
// it (optional questions, shared/skipped-note.js), the server's warning, and
// the estimate's error, after which the panel shows nothing else new.
import { el, setText } from './dom.js';
import { createSkippedNote } from './skipped-note.js';

export function createPanelNotices(questionId) {
  const skipped = createSkippedNote(questionId);
  const warning = el('p', { class: 'notice notice-warning', testid: `warning-${questionId}`, hidden: true });
  const error = el('p', { class: 'notice notice-error', role: 'alert', testid: `error-${questionId}`, hidden: true });
  return {
    elements: [skipped.element, warning, error],
    // Shows the result's notices; false when its estimate failed.
    update(result) {
      error.hidden = !result.error;
      setText(error, result.error ? `The estimate failed: ${result.error}` : '');
      if (result.error) return false;
      skipped.update(result);
      warning.hidden = !result.warning;
      setText(warning, result.warning ? `Warning: ${result.warning}` : '');
      return true;
    },
  };
}
