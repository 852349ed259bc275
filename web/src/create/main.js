import { loadCore } from '../core.js';
import { bearer, requestJson, surveyPath } from '../shared/api.js';
import { el, replaceChildren, setText } from '../shared/dom.js';
import { showFatalError } from '../shared/fatal.js';
import { formatEpsilon } from '../shared/format.js';
import { dashboardUrl, queryParameter, surveyPageUrl } from '../shared/location.js';
import { loadAdminToken, saveAdminToken } from '../shared/admin-token.js';
import { labelledField } from '../shared/labelled-field.js';
import { decimalOrUndefined, numberInput } from '../shared/number-input.js';
import { buildDefinition, editorValuesOf } from './definition-builder.js';
import { carriedFields, describeCarried, withCarriedFields } from './carried-fields.js';
import { clearDraft, loadDraft, saveDraft } from './draft.js';
import { largeEpsilonWarning } from './epsilon-warning.js';
import { createInvitationsPanel } from './invitations.js';
import { createQuestionEditor } from './question-editor.js';
import { openQuestionsWarning } from './open-warning.js';
import { correctionIntro, createCorrectionPanel } from './correction-panel.js';

// The survey builder: a form for the definition, live privacy budgets and
// advisor per question, the JSON preview validated by the core, and Create.

const main = document.getElementById('create-page');
const DEFAULT_RESPONDENTS = '1000';

// A new question: the default type, each kind's fields at their defaults.
const FIRST_QUESTION = { id: 'q1', text: '', epsilon: '1' };

async function start() {
  let core;
  try {
    core = await loadCore();
  } catch (error) {
    showFatalError(main, 'The survey builder could not start', `The privacy core failed to load: ${error.message}`);
    return;
  }
  const from = queryParameter('from');
  const correct = queryParameter('correct');
  const draft = loadDraft();
  let opening = { draft: from ? null : draft, copyOf: null, copyError: null };
  if (correct) {
    // Correcting a running survey's words: its definition as it runs, same id and version; no draft kept.
    try {
      const survey = await requestJson(surveyPath(correct));
      const running = draftFromSurvey(survey);
      running.meta = { ...running.meta, id: survey.id, version: survey.version };
      createBuilder(core, { draft: running, copyOf: survey, copyError: null, correcting: true });
    } catch (error) {
      createBuilder(core, { draft, copyOf: null, copyError: `Could not load the survey “${correct}” to correct: ${error.message}` });
    }
    return;
  }
  if (from) {
    try {
      const survey = await requestJson(surveyPath(from));
      // A draft of this copy (a reload) wins over a fresh copy.
      opening = { draft: draft?.from === from ? draft : draftFromSurvey(survey), copyOf: survey, copyError: null };
    } catch (error) {
      opening = { draft, copyOf: null, copyError: `Could not load the survey “${from}” to copy: ${error.message}` };
    }
  }
  createBuilder(core, opening);
}

// A new version of an existing survey, as a draft: version + 1 and a new id
// suggestion (ids of surveys, even deleted ones, are never reused).
function draftFromSurvey(survey) {
  const version = (Number(survey.version) || 1) + 1;
  const base = String(survey.id).replace(/-v\d+$/, '');
  return {
    meta: {
      id: `${base}-v${version}`, title: survey.title ?? '', description: survey.description ?? '',
      language: survey.language ?? '', results: survey.results ?? 'admin', access: survey.access ?? 'open',
      respondents: DEFAULT_RESPONDENTS, version,
    },
    questions: (survey.questions ?? []).map(editorValuesOf),
  };
}

function createBuilder(core, start) {
  const meta = {
    id: el('input', { id: 'survey-id', type: 'text', autocomplete: 'off', spellcheck: 'false', placeholder: 'e.g. staff-wellbeing-2025', testid: 'survey-id' }),
    title: el('input', { id: 'survey-title', type: 'text', testid: 'survey-title-input' }),
    description: el('textarea', { id: 'survey-description', rows: '3', testid: 'survey-description' }),
    // Private by default: public results are an explicit choice.
    results: select('survey-results', 'survey-results', [['admin', 'Admin only'], ['public', 'Public']]),
    language: el('input', { id: 'survey-language', type: 'text', autocomplete: 'off', spellcheck: 'false', placeholder: 'e.g. fr', testid: 'survey-language' }),
    access: select('survey-access', 'survey-access', [['open', 'Open'], ['invitation', 'By invitation']]),
    respondents: numberInput({ id: 'expected-respondents', value: DEFAULT_RESPONDENTS, whole: true, testid: 'expected-respondents' }),
  };
  const editors = [];
  const questionList = el('div', { class: 'question-editors' });
  const addButton = el('button', { type: 'button', class: 'button', testid: 'add-question', text: 'Add a question' });
  let version = 1;
  // A copy keeps the original's settings that have no field here.
  const carried = carriedFields(start.copyOf?.questions);
  const correcting = start.correcting ? start.copyOf : null;
  const live = createLivePanel(core, {
    correcting,
    // After a successful Create: the draft is done (the links stay on the page).
    onCreated: () => {
      clearDraft();
      setText(draftNote, 'Created: the draft was cleared from this device.');
    },
    onCreateAnother: () => startOver(),
  });

  const form = el('form', { class: 'builder-form', novalidate: true, testid: 'builder-form' }, [
    el('fieldset', { class: 'card' }, [
      el('legend', { text: 'Survey' }),
      el('div', { class: 'field-row' }, [
        labelledField(meta.id, 'Survey id', 'Appears in links: /s/<id>. Letters, digits, - and _.'),
        labelledField(meta.title, 'Title'),
      ]),
      labelledField(meta.description, 'Description (shown to respondents)'),
      el('div', { class: 'field-row' }, [
        labelledField(meta.language, 'Language of the survey (optional)', 'A language tag such as fr, de or pt-BR; tells browsers and screen readers how to read it.'),
      ]),
      el('div', { class: 'field-row' }, [
        labelledField(meta.results, 'Who sees the results', 'Admin only (the default): the results need the admin token. Public: anyone with the results link sees them.'),
        labelledField(meta.access, 'Who can answer', 'Open: anyone with the link. By invitation: one code per report.'),
        labelledField(meta.respondents, 'Expected respondents', 'Used by the advisor below.'),
      ]),
    ]),
    questionList,
    el('div', { class: 'actions' }, [addButton]),
  ]);
  form.addEventListener('submit', (event) => event.preventDefault());

  const refresh = () => {
    editors.forEach((editor, index) => editor.setPosition(index, editors.length));
    const respondents = Math.max(1, decimalOrUndefined(meta.respondents.value, true) ?? 1);
    const values = editors.map((editor) => editor.read());
    editors.forEach((editor, index) => editor.showFeedback(core, respondents, values.slice(0, index)));
    const questionValues = editors.map((editor) => editor.read());
    live.show(withCarriedFields(buildDefinition({ ...readMeta(meta), version }, questionValues), carried));
    if (!live.created() && !correcting) saveDraft({ from: start.copyOf?.id, meta: { ...readMeta(meta), respondents: meta.respondents.value, version }, questions: questionValues });
  };
  const addQuestion = (initial) => {
    const editor = createQuestionEditor(initial, {
      onRemove: (removed) => {
        editors.splice(editors.indexOf(removed), 1);
        removed.element.remove();
        refresh();
        editors[Math.min(removed.index, editors.length - 1)]?.element.querySelector('input')?.focus();
      },
    });
    editors.push(editor);
    questionList.append(editor.element);
    refresh();
    return editor;
  };
  addButton.addEventListener('click', () => {
    const editor = addQuestion({ ...FIRST_QUESTION, id: `q${editors.length + 1}` });
    editor.element.querySelector('input[type="text"]').focus();
  });
  form.addEventListener('input', refresh);
  form.addEventListener('change', refresh);

  const draftNote = el('p', { class: 'hint', testid: 'draft-note' });
  const newSurveyButton = el('button', { type: 'button', class: 'button button-small', testid: 'start-new-survey', text: 'Start a new survey' });
  const startOver = () => {
    clearDraft();
    window.location.assign('/create');
  };
  newSurveyButton.addEventListener('click', startOver);
  const copyNote = correcting ? correctionIntro(correcting) : start.copyOf
    ? el('p', { class: 'notice notice-success', testid: 'copy-note', text: `A new version (${start.draft.meta.version}) of “${start.copyOf.title}” (${start.copyOf.id}). Survey ids are never reused, so this version needs a new id; “${start.draft.meta.id}” is suggested.` })
    : null;
  const carriedNote = carried.size > 0
    ? el('p', { class: 'hint', testid: 'carried-note', text: `Kept as in version ${start.copyOf.version} (no field for them here): ${describeCarried(carried)}.` })
    : null;
  const copyError = start.copyError ? el('p', { class: 'notice notice-error', role: 'alert', testid: 'copy-error', text: start.copyError }) : null;

  replaceChildren(main, [
    el('h1', { text: correcting ? 'Correct a survey’s wording' : start.copyOf ? 'New version of a survey' : 'Create a survey' }),
    el('p', { class: 'lead', text: correcting ? 'Edit the words below, then correct them on this server: the survey keeps its version and its reports.' : 'Build the survey definition, check each question’s privacy budget and expected precision, then create it on this server.' }),
    copyNote,
    carriedNote,
    copyError,
    correcting ? null : el('div', { class: 'draft-bar' }, [draftNote, newSurveyButton]),
    el('div', { class: 'builder' }, [form, live.element]),
  ]);

  const draft = start.draft;
  if (draft) {
    const saved = draft.meta ?? {};
    for (const name of ['id', 'title', 'description', 'language', 'results', 'access', 'respondents']) {
      if (typeof saved[name] === 'string' && meta[name]) meta[name].value = saved[name];
    }
    version = Number.isInteger(saved.version) && saved.version > 0 ? saved.version : 1;
    meta.id.readOnly = Boolean(correcting);  // a correction keeps the survey's id
    setText(draftNote, start.copyOf ? 'Changes are kept on this device as a draft.' : 'Your draft was restored from this device. It is kept as you type.');
    for (const values of draft.questions) addQuestion(values);
  } else {
    setText(draftNote, 'Your draft is kept on this device as you type, so a reload does not lose it.');
    addQuestion(FIRST_QUESTION);
  }
}

function readMeta(meta) {
  return {
    id: meta.id.value, title: meta.title.value, description: meta.description.value,
    language: meta.language.value, results: meta.results.value, access: meta.access.value,
  };
}

// The right-hand panel: total epsilon, validation, JSON preview, admin token, Create.
function createLivePanel(core, { onCreated, onCreateAnother, correcting }) {
  let definition = null;
  let valid = false;
  let created = false;
  const total = el('strong', { testid: 'total-epsilon', text: '—' });
  const totalWarning = el('p', { class: 'notice notice-warning epsilon-warning', testid: 'total-epsilon-warning', hidden: true });
  // Questions asked openly are outside the total; together they can single a person out.
  const totalOpenNote = el('span', { class: 'hint', testid: 'total-epsilon-open' });
  const openWarning = el('div', { class: 'notice notice-warning', testid: 'open-warning', hidden: true });
  const validation = el('p', { class: 'notice', role: 'status', testid: 'validation' });
  const preview = el('pre', { class: 'json', testid: 'definition-json' });
  const token = el('input', { id: 'admin-token', type: 'password', autocomplete: 'off', spellcheck: 'false', value: loadAdminToken(), testid: 'admin-token' });
  const createButton = el('button', { type: 'submit', class: 'button button-primary', testid: 'create-survey', text: 'Create the survey' });
  const result = el('div', { class: 'create-result', testid: 'create-result', 'aria-live': 'polite' });
  const createForm = el('form', { class: 'create-form', novalidate: true }, [
    el('div', { class: 'field' }, [
      el('label', { for: 'admin-token', text: 'Admin token' }),
      token,
      el('p', { class: 'hint', text: 'Printed by the server at its first start; kept only for this tab.' }),
    ]),
    createButton,
  ]);
  token.addEventListener('input', () => saveAdminToken(token.value.trim()));
  createForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!valid || created) return;
    createButton.disabled = true;
    try {
      const survey = await requestJson('/api/surveys', { method: 'POST', json: definition, headers: bearer(token.value.trim()) });
      // Done: Create stays disabled (a second press could only be refused), the links stay.
      created = true;
      setText(createButton, 'Created');
      showCreated(result, survey, () => token.value.trim(), anotherButton);
      onCreated();
    } catch (error) {
      replaceChildren(result, el('p', { class: 'notice notice-error', role: 'alert', testid: 'create-error', text: `The survey was not created: ${error.message}` }));
    } finally {
      createButton.disabled = !valid || created;
    }
  });
  const anotherButton = el('button', { type: 'button', class: 'button button-primary', testid: 'create-another', text: 'Create another survey' });
  anotherButton.addEventListener('click', () => onCreateAnother());

  const element = el('aside', { class: 'builder-live', 'aria-label': 'Live check and creation' }, [
    el('section', { class: 'card' }, [
      el('h2', { text: 'Privacy budget' }),
      el('p', {}, ['Whole survey (the questions’ budgets add up): ', total, ' ', totalOpenNote]),
      totalWarning,
      openWarning,
      validation,
      el('details', { class: 'raw-report' }, [el('summary', { text: 'Definition (JSON)' }), preview]),
    ]),
    correcting ? null : el('section', { class: 'card' }, [el('h2', { text: 'Create' }), createForm, result]),
  ]);
  // Correction mode: the admin token field stays, above "Correct the wording" instead of Create.
  const correction = correcting ? createCorrectionPanel(correcting, { definition: () => definition, token: () => token.value.trim() }) : null;
  if (correction) {
    correction.element.insertBefore(createForm.firstChild, correction.element.children[1]);
    element.append(correction.element);
  }

  // Until the designer types or picks something, an incomplete definition is
  // not an error ("id: must not be empty" before any input): it says what to do.
  let touched = false;
  document.addEventListener('input', () => { touched = true; }, true);
  document.addEventListener('change', () => { touched = true; }, true);

  return {
    element,
    created: () => created,
    show(nextDefinition) {
      definition = nextDefinition;
      setText(preview, JSON.stringify(definition, null, 2));
      try {
        const parsed = core.parseSurvey(definition);
        valid = true;
        setText(total, formatEpsilon(parsed.total_epsilon));
        showTotalWarning(totalWarning, parsed.total_epsilon);
        showOpenWarning(openWarning, totalOpenNote, parsed.survey.questions);
        showValidation(validation, 'success', 'The definition is valid.');
      } catch (error) {
        valid = false;
        setText(total, '—');
        showTotalWarning(totalWarning, null);
        showOpenWarning(openWarning, totalOpenNote, []);
        if (touched) showValidation(validation, 'error', error.message);
        else showValidation(validation, 'info', 'Fill in the survey’s id, title and questions: the definition is checked as you type.');
      }
      createButton.disabled = !valid || created;
      correction?.setValid(valid);
    },
  };
}

function showTotalWarning(node, totalEpsilon) {
  const text = largeEpsilonWarning(totalEpsilon, 'survey') ?? '';
  setText(node, text);
  node.hidden = text === '';
}

function showOpenWarning(node, note, questions) {
  const warning = openQuestionsWarning(questions);
  setText(note, warning ? `(${warning.count === 1 ? 'the question' : `the ${warning.count} questions`} asked openly ${warning.count === 1 ? 'is' : 'are'} not counted: ${warning.count === 1 ? 'it is' : 'they are'} not protected)` : '');
  replaceChildren(node, warning ? warning.lines.map((line) => el('p', { text: line })) : []);
  node.hidden = !warning;
}

function showValidation(node, kind, message) {
  node.className = `notice notice-${kind}`;
  node.dataset.state = kind;
  setText(node, message);
}

function showCreated(result, survey, adminToken, anotherButton) {
  const surveyUrl = surveyPageUrl(survey.id);
  const resultsUrl = dashboardUrl(survey.id);
  replaceChildren(result, [
    el('p', { class: 'notice notice-success', role: 'status', testid: 'create-success', text: `Survey “${survey.title}” created.` }),
    el('ul', { class: 'created-links' }, [
      el('li', {}, ['Survey page: ', el('a', { href: surveyUrl, testid: 'created-survey-link', text: surveyUrl })]),
      el('li', {}, ['Results: ', el('a', { href: resultsUrl, testid: 'created-results-link', text: resultsUrl })]),
    ]),
    el('p', { class: 'hint', text: 'Editing the form now changes nothing on the server; the survey above is created.' }),
    el('div', { class: 'actions' }, [
      anotherButton,
      el('a', { class: 'button', href: '/manage', testid: 'created-manage-link', text: 'Manage surveys' }),
    ]),
    survey.access === 'invitation' ? createInvitationsPanel(survey.id, adminToken) : null,
  ]);
}

function select(id, testid, choices) {
  return el('select', { id, testid }, choices.map(([value, text]) => el('option', { value, text })));
}


start();
