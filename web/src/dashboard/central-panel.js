// The results panel of a question answered in confidence (shared/central.js),
// for any kind that can be (categorical, histogram): what is published is
// releases only, never exact counts. It shows the question's facts, a plain
// line saying so, its ledger (budget, spent, left, and every release with its
// ε, time and n), the chosen release (the latest by default) as bars with 95%
// error bars and a table, the raw or the consistent values, and for the
// admin (stored token) the release form and, when the definition allows
// them, the exact counts. The same release shows the same numbers to every
// reader: releases are stored by the server, never drawn again.
import { loadAdminToken } from '../shared/admin-token.js';
import { el, replaceChildren, setText } from '../shared/dom.js';
import { formatEpsilon, formatInteger, formatNumber } from '../shared/format.js';
import { createSkippedNote } from '../shared/skipped-note.js';
import { createExactCounts, createReleaseForm } from './central-admin.js';
import { createReleaseView, methodShortName, releaseTime } from './central-release.js';

// What the panel is built from: a panel is rebuilt only when this changes.
export function structure(question) {
  return ['central', question.bins ?? []];
}

// `context`: {surveyId, refresh() (poll now), offerToken(message) (the
// admin sign-in form), allowsExactCounts(questionId): Promise<boolean>}.
export function createPanel(question, index, context) {
  const id = question.id;
  const headingId = `question-heading-${index}`;
  const facts = {
    n: el('dd', { testid: `n-${id}` }),
    epsilon: el('dd', { testid: `epsilon-${id}` }),
    mechanism: el('dd', { testid: `mechanism-${id}`, text: 'Answered in confidence (central): releases with added noise' }),
  };
  const skipped = createSkippedNote(id);
  const privacyNote = el('p', { testid: `privacy-note-${id}` });
  const ledger = createLedger(id);
  const nothing = el('p', { class: 'central-nothing', testid: `nothing-released-${id}`, text: 'Nothing released yet.' });
  const nothingHint = el('p', { class: 'hint', text: 'The admin publishes releases; each spends part of the question’s budget. Exact counts are never published.' });
  const picker = createPicker(id);
  const view = createReleaseView(id, question.text ?? id);
  const releaseSection = el('section', { class: 'central-section', 'aria-labelledby': `release-heading-${index}`, testid: `release-section-${id}` }, [
    el('h3', { id: `release-heading-${index}`, class: 'chart-title', text: 'Published release' }),
    picker.element,
    view.element,
  ]);
  const admin = el('div', { class: 'central-admin', testid: `central-admin-${id}` });

  const element = el('section', { class: 'card question-result question-result-wide question-result-central', 'aria-labelledby': headingId, testid: `question-${id}` }, [
    el('h2', { id: headingId, text: question.text ?? id }),
    el('p', { class: 'central-plain', testid: `central-plain-${id}`, text: 'Answered in confidence: only releases with added noise are published.' }),
    el('dl', { class: 'facts' }, [
      el('div', {}, [el('dt', { text: 'Respondents (n)' }), facts.n]),
      el('div', {}, [el('dt', { text: 'Privacy budget' }), facts.epsilon]),
      el('div', {}, [el('dt', { text: 'Mechanism' }), facts.mechanism]),
    ]),
    skipped.element,
    el('details', { class: 'report-details', testid: `privacy-details-${id}` }, [
      el('summary', { text: 'What the budget means' }),
      privacyNote,
    ]),
    ledger.element,
    nothing,
    nothingHint,
    releaseSection,
    admin,
  ]);

  // The admin's tools: built when a token is stored, kept while it is.
  let tools = null;
  let focusToolsWhenReady = false;
  let allowsCounts = false;
  let latest = null;
  context.allowsExactCounts(id).then((allowed) => {
    allowsCounts = allowed;
    if (latest) updateAdmin(latest);
  }).catch(() => {});

  const signIn = el('button', { type: 'button', class: 'button', testid: `release-sign-in-${id}`, text: 'Sign in as admin to make releases' });
  signIn.addEventListener('click', () => {
    focusToolsWhenReady = true;
    context.offerToken('Enter the admin token to make releases of questions answered in confidence (and, where allowed, to see their exact counts).');
  });

  function updateAdmin(result) {
    const hasToken = Boolean(loadAdminToken());
    const wanted = hasToken ? `admin:${allowsCounts}` : 'reader';
    if (!tools || tools.key !== wanted) {
      if (hasToken) {
        const onUnauthorised = (message) => context.offerToken(`The admin token was refused: ${message}`);
        const form = createReleaseForm({ surveyId: context.surveyId, questionId: id, onReleased: () => context.refresh(), onUnauthorised });
        const counts = allowsCounts ? createExactCounts({ surveyId: context.surveyId, questionId: id, onUnauthorised }) : null;
        tools = { key: wanted, form };
        replaceChildren(admin, [form.element, counts?.element]);
        if (focusToolsWhenReady) {
          focusToolsWhenReady = false;
          form.focus();
        }
      } else {
        tools = { key: wanted, form: null };
        replaceChildren(admin, [el('div', { class: 'actions' }, [signIn])]);
      }
    }
    tools.form?.update(result.ledger);
  }

  // The picker's own changes redraw at once (no wait for the next poll).
  picker.onChange(() => {
    const { release, consistent } = picker.current();
    if (release) view.show(release, consistent);
  });

  return {
    element,
    update(result) {
      latest = result;
      setText(facts.n, formatInteger(result.n));
      setText(facts.epsilon, formatEpsilon(result.epsilon ?? result.privacy?.epsilon ?? null));
      skipped.update(result);
      const note = result.privacy?.note ?? '';
      setText(privacyNote, note ? `${note.charAt(0).toUpperCase()}${note.slice(1)}.` : '');
      const releases = result.ledger?.releases ?? [];
      ledger.update(result.ledger);
      nothing.hidden = releases.length > 0;
      nothingHint.hidden = releases.length > 0;
      releaseSection.hidden = releases.length === 0;
      if (releases.length > 0) {
        const { release, consistent } = picker.update(releases);
        view.show(release, consistent);
      }
      updateAdmin(result);
    },
    destroy: () => view.destroy(),
  };

}

// Budget, spent, left, and the table of releases.
function createLedger(id) {
  const cells = {
    budget: el('dd', { testid: `ledger-budget-${id}` }),
    spent: el('dd', { testid: `ledger-spent-${id}` }),
    left: el('dd', { testid: `ledger-left-${id}` }),
  };
  const body = el('tbody');
  const tableBox = el('div', { class: 'table-scroll' }, [
    el('table', { class: 'results-table', testid: `ledger-table-${id}`, 'aria-label': 'Releases of this question' }, [
      el('thead', {}, [el('tr', {}, [
        el('th', { scope: 'col', text: 'Release' }),
        el('th', { scope: 'col', class: 'text-left', text: 'Method' }),
        el('th', { scope: 'col', text: 'ε' }),
        el('th', { scope: 'col', text: 'Made (UTC)' }),
        el('th', { scope: 'col' }, [el('abbr', { title: 'respondents', text: 'n' })]),
      ])]),
      body,
    ]),
  ]);
  let key = '';
  const element = el('section', { class: 'central-section', 'aria-label': 'Privacy budget ledger', testid: `ledger-${id}` }, [
    el('h3', { class: 'chart-title', text: 'Privacy budget ledger' }),
    el('dl', { class: 'facts' }, [
      el('div', {}, [el('dt', { text: 'Budget (ε)' }), cells.budget]),
      el('div', {}, [el('dt', { text: 'Spent' }), cells.spent]),
      el('div', {}, [el('dt', { text: 'Left' }), cells.left]),
    ]),
    tableBox,
  ]);
  return {
    element,
    update(ledger) {
      setText(cells.budget, formatNumber(ledger?.budget));
      setText(cells.spent, formatNumber(ledger?.spent));
      setText(cells.left, formatNumber(ledger?.left));
      const releases = ledger?.releases ?? [];
      tableBox.hidden = releases.length === 0;
      const nextKey = JSON.stringify(releases.map((release) => release.id));
      if (nextKey === key) return;
      key = nextKey;
      replaceChildren(body, releases.map((release) => el('tr', { testid: `ledger-row-${id}-${release.id}` }, [
        el('th', { scope: 'row', text: release.id }),
        el('td', { text: methodShortName(release.method) }),
        el('td', { class: 'number', text: formatNumber(release.epsilon) }),
        // The date and the time each kept whole, on two lines where the table is narrow.
        el('td', { class: 'number ledger-time' }, releaseTime(release.created_at, false).split(' ').map((part, position) =>
          [position > 0 ? ' ' : null, el('span', { class: 'nowrap', text: part })])),
        el('td', { class: 'number', text: formatInteger(release.respondents) }),
      ])));
    },
  };
}

// Which release to show (the latest unless the reader chose another; a new
// release is shown as it arrives) and whether to show its consistent values.
function createPicker(id) {
  const select = el('select', { id: `release-select-${id}`, testid: `release-select-${id}` });
  const consistent = el('input', { type: 'checkbox', id: `release-consistent-${id}`, testid: `release-consistent-${id}` });
  let releases = [];
  let chosen = null;     // the id the reader chose, or null: the latest
  let optionsKey = '';
  let changed = () => {};
  select.addEventListener('change', () => {
    chosen = select.value === releases.at(-1)?.id ? null : select.value;
    changed();
  });
  consistent.addEventListener('change', () => changed());
  const current = () => {
    const release = releases.find((candidate) => candidate.id === (chosen ?? releases.at(-1)?.id)) ?? releases.at(-1) ?? null;
    return { release, consistent: consistent.checked };
  };
  return {
    element: el('div', { class: 'release-picker' }, [
      el('div', { class: 'field' }, [el('label', { for: select.id, text: 'Release shown' }), select]),
      el('div', { class: 'field field-checkbox' }, [consistent,
        el('label', { for: consistent.id, text: 'Show consistent values (at least 0, same total)' })]),
    ]),
    onChange(callback) {
      changed = callback;
    },
    current,
    update(nextReleases) {
      const count = releases.length;
      releases = nextReleases;
      // A new release (e.g. just made) is shown at once.
      if (nextReleases.length > count && count > 0) chosen = null;
      const nextKey = JSON.stringify(nextReleases.map((release) => release.id));
      if (nextKey !== optionsKey) {
        optionsKey = nextKey;
        replaceChildren(select, [...nextReleases].reverse().map((release, position) => el('option', {
          value: release.id,
          text: `${release.id}${position === 0 ? ' (latest)' : ''}: ${methodShortName(release.method)}, ε = ${formatNumber(release.epsilon)}, n = ${formatInteger(release.respondents)}`,
        })));
      }
      const { release } = current();
      if (release && select.value !== release.id) select.value = release.id;
      return current();
    },
  };
}
