// The results panel of a question answered in confidence (central/trust.js),
// for any kind that can be (categorical, histogram): what is published is
// releases only, never exact counts. It shows the question's facts, a plain
// line saying so, its ledger (budget, spent, reserved, left, every release
// with its ε, time and n, and the releases scheduled at a number of answers),
// the chosen release (the latest by default) as bars with 95% error bars and
// a table, the raw or post-processed values (consistent, clamped, rounded),
// and for the admin (stored token) the release form (now or scheduled), a
// Cancel button per scheduled release and, when the definition allows them,
// the exact counts. The same release shows the same numbers to every reader:
// releases are stored by the server, never drawn again.
import { loadAdminToken } from '../shared/admin-token.js';
import { el, replaceChildren, setText } from '../shared/dom.js';
import { scrollBox } from '../shared/scroll-box.js';
import { formatEpsilon, formatInteger, formatNumber } from '../shared/format.js';
import { createResultCard } from '../shared/result-card.js';
import { cancelScheduledRelease, createExactCounts, createReleaseForm } from './dashboard-admin.js';
import { createPostProcessing } from './dashboard-postprocess.js';
import { createReleaseView, methodShortName, releaseTime } from './dashboard-release.js';

// What the panel is built from: a panel is rebuilt only when this changes.
export function structure(question) {
  return ['central', question.bins ?? []];
}

// `context`: {surveyId, refresh() (poll now), offerToken(message) (the
// admin sign-in form), allowsExactCounts(questionId): Promise<boolean>}.
export function createPanel(question, index, context) {
  const id = question.id;
  const privacyNote = el('p', { testid: `privacy-note-${id}` });
  const ledger = createLedger(id, index);
  const nothing = el('p', { class: 'central-nothing', testid: `nothing-released-${id}`, text: 'Nothing released yet.' });
  const nothingHint = el('p', { class: 'hint', text: 'The admin publishes releases; each spends part of the question’s budget. Exact counts are never published.' });
  const picker = createPicker(id, context.surveyId);
  const view = createReleaseView(id, question.text ?? id);
  const releaseSection = el('section', { class: 'central-section', 'aria-labelledby': `release-heading-${index}`, testid: `release-section-${id}` }, [
    el('h3', { id: `release-heading-${index}`, class: 'chart-title', text: 'Published release' }),
    picker.element,
    view.element,
  ]);
  const admin = el('div', { class: 'central-admin', testid: `central-admin-${id}` });

  const card = createResultCard(question, index, {
    variant: 'question-result-wide question-result-central',
    lead: [el('p', { class: 'central-plain', testid: `central-plain-${id}`, text: 'Answered in confidence: only releases with added noise are published.' })],
    facts: [
      { key: 'n', label: 'Respondents (n)' },
      { key: 'epsilon', label: 'Privacy budget' },
      { key: 'mechanism', label: 'Mechanism', text: 'Answered in confidence (central): releases with added noise' },
    ],
    // Releases carry no estimate to fail and no sample-size warning: the ledger says what there is.
    warning: false,
    error: false,
    body: [
      el('details', { class: 'report-details', testid: `privacy-details-${id}` }, [
        el('summary', { text: 'What the budget means' }),
        privacyNote,
      ]),
      ledger.element,
      nothing,
      nothingHint,
      releaseSection,
      admin,
    ],
  });
  const { facts } = card;

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
    tools.form?.update(result.ledger, result.n);
  }

  // Cancelling a scheduled release (admin): the server's refusal, word for
  // word, in the form’s alert; then the page polls at once.
  ledger.onCancel(async (scheduled) => {
    const form = tools?.form;
    form?.clearMessages();
    try {
      const budget = await cancelScheduledRelease({ surveyId: context.surveyId, questionId: id, scheduledId: scheduled.id });
      form?.showCancelled(scheduled, budget);
      ledger.focusAfterCancel();
    } catch (failure) {
      form?.showError(failure.message);
      if (failure.status === 401) context.offerToken(`The admin token was refused: ${failure.message}`);
    }
    context.refresh();
  });

  // The picker's own changes redraw at once (no wait for the next poll).
  picker.onChange(() => {
    const { release, display } = picker.current();
    if (release) view.show(release, display);
  });

  return {
    element: card.element,
    update(result) {
      latest = result;
      card.update(result);
      setText(facts.n, formatInteger(result.n));
      setText(facts.epsilon, formatEpsilon(result.epsilon ?? result.privacy?.epsilon ?? null));
      const note = result.privacy?.note ?? '';
      setText(privacyNote, note ? `${note.charAt(0).toUpperCase()}${note.slice(1)}.` : '');
      const releases = result.ledger?.releases ?? [];
      ledger.update(result.ledger, { n: result.n, admin: Boolean(loadAdminToken()) });
      nothing.hidden = releases.length > 0;
      nothingHint.hidden = releases.length > 0;
      releaseSection.hidden = releases.length === 0;
      if (releases.length > 0) {
        const { release, display } = picker.update(releases);
        view.show(release, display);
      }
      updateAdmin(result);
    },
    destroy: () => view.destroy(),
  };

}

// Budget, spent, reserved, left, the table of releases and the table of
// scheduled releases (with a Cancel button each for the admin).
function createLedger(id, index) {
  const cells = {
    budget: el('dd', { testid: `ledger-budget-${id}` }),
    spent: el('dd', { testid: `ledger-spent-${id}` }),
    reserved: el('dd', { testid: `ledger-reserved-${id}` }),
    left: el('dd', { testid: `ledger-left-${id}` }),
  };
  const body = el('tbody');
  const tableBox = scrollBox(el('table', { class: 'results-table', testid: `ledger-table-${id}`, 'aria-label': 'Releases of this question' }, [
    el('thead', {}, [el('tr', {}, [
      el('th', { scope: 'col', text: 'Release' }),
      el('th', { scope: 'col', class: 'text-left', text: 'Method' }),
      el('th', { scope: 'col', text: 'ε' }),
      el('th', { scope: 'col', text: 'Made (UTC)' }),
      el('th', { scope: 'col' }, [el('abbr', { title: 'respondents', text: 'n' })]),
    ])]),
    body,
  ]));
  const scheduled = createScheduledTable(id, index);
  let key = '';
  const heading = el('h3', { class: 'chart-title', tabindex: '-1', testid: `ledger-heading-${id}`, text: 'Privacy budget ledger' });
  const element = el('section', { class: 'central-section', 'aria-label': 'Privacy budget ledger', testid: `ledger-${id}` }, [
    heading,
    el('dl', { class: 'facts' }, [
      el('div', {}, [el('dt', { text: 'Budget (ε)' }), cells.budget]),
      el('div', {}, [el('dt', { text: 'Spent' }), cells.spent]),
      el('div', {}, [el('dt', { text: 'Reserved' }), cells.reserved]),
      el('div', {}, [el('dt', { text: 'Left' }), cells.left]),
    ]),
    tableBox,
    scheduled.element,
  ]);
  return {
    element,
    onCancel: (callback) => scheduled.onCancel(callback),
    // The cancelled row goes with the next poll: focus waits on the heading.
    focusAfterCancel: () => heading.focus(),
    // `state`: {n: the question's answers now, admin: a token is stored}.
    update(ledger, state) {
      setText(cells.budget, formatNumber(ledger?.budget));
      setText(cells.spent, formatNumber(ledger?.spent));
      setText(cells.reserved, formatNumber(ledger?.reserved ?? 0));
      setText(cells.left, formatNumber(ledger?.left));
      scheduled.update(ledger?.scheduled ?? [], state);
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
        el('td', { class: 'number ledger-time' }, timeParts(release.created_at)),
        el('td', { class: 'number', text: formatInteger(release.respondents) }),
      ])));
    },
  };
}

// "2026-11-25 02:15:50" as two unbreakable parts.
function timeParts(time) {
  return releaseTime(time, false).split(' ').map((part, position) =>
    [position > 0 ? ' ' : null, el('span', { class: 'nowrap', text: part })]);
}

// The releases waiting for a number of answers: their ε is reserved now, and
// the server makes each when the question's N-th answer is stored. On a
// phone each row is stacked, its cells labelled (styles.css: the labels come
// from data-label); the roles keep it a table for screen readers there.
const SCHEDULED_COLUMNS = ['Release', 'Method', 'ε', 'Made when', 'Scheduled (UTC)'];

function createScheduledTable(id, index) {
  const body = el('tbody', { role: 'rowgroup' });
  const cancelHeading = el('th', { scope: 'col', role: 'columnheader', text: 'Cancel' });
  const header = (text, position) => el('th', {
    scope: 'col', role: 'columnheader', class: position === 1 || position === 3 ? 'text-left' : null, text,
  });
  const headingId = `scheduled-heading-${index}`;
  const element = el('div', { class: 'scheduled-releases', testid: `scheduled-${id}`, hidden: true }, [
    el('h4', { id: headingId, class: 'chart-title', text: 'Scheduled releases' }),
    el('p', { class: 'hint', text: 'Each is made by the server when the question has that many answers; its ε is reserved until then.' }),
    scrollBox(el('table', { class: 'results-table scheduled-table', role: 'table', testid: `scheduled-table-${id}`, 'aria-labelledby': headingId }, [
      el('thead', { role: 'rowgroup' }, [el('tr', { role: 'row' }, [...SCHEDULED_COLUMNS.map(header), cancelHeading])]),
      body,
    ])),
  ]);
  let rows = [];
  let key = '';
  let cancel = () => {};
  const createRow = (item) => {
    const now = el('span', { class: 'scheduled-now' });
    const button = el('button', {
      type: 'button', class: 'button button-small button-danger', testid: `scheduled-cancel-${id}-${item.id}`,
      'aria-label': `Cancel scheduled release ${item.id}`, text: 'Cancel',
    });
    const buttonCell = el('td', { class: 'scheduled-cancel', role: 'cell' }, [button]);
    const label = (position) => ({ 'data-label': SCHEDULED_COLUMNS[position] });
    button.addEventListener('click', async () => {
      button.disabled = true;
      try {
        await cancel(item);
      } finally {
        button.disabled = false;
      }
    });
    const element = el('tr', { role: 'row', testid: `scheduled-row-${id}-${item.id}` }, [
      el('th', { scope: 'row', role: 'rowheader', ...label(0), text: item.id }),
      el('td', { role: 'cell', ...label(1), text: methodShortName(item.request?.method) }),
      el('td', { class: 'number', role: 'cell', ...label(2), text: formatNumber(item.request?.epsilon) }),
      el('td', { class: 'scheduled-when', role: 'cell', ...label(3), testid: `scheduled-when-${id}-${item.id}` }, [
        `${formatInteger(item.at_respondents)} answers are in `, now,
      ]),
      el('td', { class: 'number ledger-time', role: 'cell', ...label(4) }, timeParts(item.scheduled_at)),
      buttonCell,
    ]);
    return {
      element,
      update({ n, admin }) {
        setText(now, `(${formatInteger(n)} now)`);
        buttonCell.hidden = !admin;
      },
    };
  };
  return {
    element,
    onCancel(callback) {
      cancel = callback;
    },
    update(items, state) {
      element.hidden = items.length === 0;
      cancelHeading.hidden = !state.admin;
      const nextKey = JSON.stringify(items.map((item) => item.id));
      if (nextKey !== key) {
        key = nextKey;
        rows = items.map(createRow);
        replaceChildren(body, rows.map((row) => row.element));
      }
      rows.forEach((row) => row.update(state));
    },
  };
}

// Which release to show (the latest unless the reader chose another; a new
// release is shown as it arrives) and how (raw or post-processed values).
function createPicker(id, surveyId) {
  const select = el('select', { id: `release-select-${id}`, testid: `release-select-${id}` });
  let releases = [];
  let chosen = null;     // the id the reader chose, or null: the latest
  let optionsKey = '';
  let changed = () => {};
  const postprocessing = createPostProcessing({ surveyId, questionId: id, onChange: () => changed() });
  select.addEventListener('change', () => {
    chosen = select.value === releases.at(-1)?.id ? null : select.value;
    changed();
  });
  const current = () => {
    const release = releases.find((candidate) => candidate.id === (chosen ?? releases.at(-1)?.id)) ?? releases.at(-1) ?? null;
    return { release, display: postprocessing.display(release) };
  };
  const optionsId = `release-options-${id}`;
  return {
    element: el('div', { class: 'release-picker' }, [
      el('div', { class: 'field' }, [el('label', { for: select.id, text: 'Release shown' }), select]),
      el('fieldset', { class: 'release-options', 'aria-describedby': optionsId, testid: `release-options-${id}` }, [
        el('legend', { text: 'Values shown' }),
        el('p', { class: 'hint', id: optionsId, text: 'Post-processing is free (no privacy cost) and never changes the stored release.' }),
        el('div', { class: 'release-option-boxes' }, postprocessing.elements),
        postprocessing.messages,
      ]),
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
