import { bearer, requestJson, surveyPath } from '../shared/api.js';
import { el, replaceChildren } from '../shared/dom.js';

// The builder's correction mode (/create?correct=<id>): the running survey in
// the form, and instead of Create, "Correct the wording", which posts the
// edited definition to /api/surveys/<id>/corrections. The server keeps the
// version and records each change (shown on the dashboard); an edit that
// changes more than words (an option added or moved, a mechanism, an epsilon)
// is refused with the reason, said here with the way on: a new version.

export function correctionIntro(survey) {
  return el('div', { class: 'notice', testid: 'correction-note' }, [
    el('p', { text: `Correcting the wording of “${survey.title}” (${survey.id}, version ${survey.version}) while it runs.` }),
    el('p', { text: 'You may change the title, the description, question texts and the words of options. '
      + 'Respondents see the new words on their next page load; reports already sent still count, and the dashboard '
      + 'lists each change with its date. Anything else (an option added, removed or moved, a mechanism or an epsilon) '
      + 'needs a new version.' }),
  ]);
}

// `definition()`: the definition as edited now; `token()`: the admin token.
export function createCorrectionPanel(survey, { definition, token }) {
  const button = el('button', { type: 'submit', class: 'button button-primary', testid: 'correct-wording', text: 'Correct the wording' });
  const result = el('div', { class: 'create-result', testid: 'correction-result', 'aria-live': 'polite' });
  const form = el('form', { class: 'create-form', novalidate: true }, [button]);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (button.disabled) return;
    button.disabled = true;
    try {
      const response = await requestJson(surveyPath(survey.id, '/corrections'), {
        method: 'POST', json: withSurveyFields(survey, definition()), headers: bearer(token()),
      });
      replaceChildren(result, corrected(survey, response.correction));
    } catch (error) {
      replaceChildren(result, refused(survey, error));
    } finally {
      button.disabled = false;
    }
    result.querySelector('[tabindex="-1"]')?.focus();
  });
  return {
    element: el('section', { class: 'card' }, [el('h2', { text: 'Correct the wording' }), form, result]),
    setValid(valid) { button.disabled = !valid; },
  };
}

// The running survey's own fields the builder has no field for (its declared
// analyses): kept as they are, so that only what the form shows can differ.
function withSurveyFields(survey, built) {
  const kept = Object.fromEntries(Object.entries(survey).filter(([key]) => key !== 'questions' && !(key in built)));
  return { ...kept, ...built };
}

function corrected(survey, correction) {
  return [
    el('p', { class: 'notice notice-success', role: 'status', tabindex: '-1', testid: 'correction-success',
      text: `The wording of “${survey.id}” is corrected (version ${survey.version} kept). Respondents see the new words on their next page load.` }),
    el('ul', { class: 'correction-changes', testid: 'correction-changes' },
      correction.changes.map((change) => el('li', { text: `${change.where}: “${change.before}” → “${change.after}”` }))),
    el('p', { class: 'manage-links' }, [
      el('a', { href: `/results/${encodeURIComponent(survey.id)}`, testid: 'correction-results-link', text: 'Results (the dashboard lists the change)' }),
      el('a', { href: '/manage', text: 'Manage surveys' }),
    ]),
  ];
}

function refused(survey, error) {
  if (error.code === 'needs_new_version') {
    return [
      el('div', { class: 'notice notice-error', role: 'alert', tabindex: '-1', testid: 'correction-needs-version' }, [
        el('p', { text: 'This edit needs a new version; nothing was changed.' }),
        el('p', { text: `Why: ${error.message}` }),
      ]),
      el('a', { class: 'button', href: `/create?from=${encodeURIComponent(survey.id)}`, testid: 'correction-new-version',
        text: 'Start a new version instead' }),
    ];
  }
  const nothing = error.code === 'invalid_request' ? 'Nothing to correct: the words are the ones the survey runs with.' : null;
  return [el('p', { class: 'notice notice-error', role: 'alert', tabindex: '-1', testid: 'correction-error',
    text: nothing ?? `The wording was not corrected: ${error.message}` })];
}
