import { loadCore } from '../core.js';
import { bearer, requestJson } from '../shared/api.js';
import { el, replaceChildren, setText } from '../shared/dom.js';
import { showFatalError } from '../shared/fatal.js';
import { formatEpsilon } from '../shared/format.js';
import { dashboardUrl, surveyPageUrl } from '../shared/location.js';
import { loadAdminToken, saveAdminToken } from '../shared/admin-token.js';
import { attachNumberMessage, decimalOrUndefined, numberInput } from '../shared/number-input.js';
import { buildDefinition } from './definition-builder.js';
import { largeEpsilonWarning } from './epsilon-warning.js';
import { createInvitationsPanel } from './invitations.js';
import { createQuestionEditor } from './question-editor.js';

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
  createBuilder(core);
}

function createBuilder(core) {
  const meta = {
    id: el('input', { id: 'survey-id', type: 'text', autocomplete: 'off', spellcheck: 'false', placeholder: 'e.g. staff-wellbeing-2025', testid: 'survey-id' }),
    title: el('input', { id: 'survey-title', type: 'text', testid: 'survey-title-input' }),
    description: el('textarea', { id: 'survey-description', rows: '3', testid: 'survey-description' }),
    results: select('survey-results', 'survey-results', [['public', 'Public'], ['admin', 'Admin only']]),
    access: select('survey-access', 'survey-access', [['open', 'Open'], ['invitation', 'By invitation']]),
    respondents: numberInput({ id: 'expected-respondents', value: DEFAULT_RESPONDENTS, whole: true, testid: 'expected-respondents' }),
  };
  const editors = [];
  const questionList = el('div', { class: 'question-editors' });
  const addButton = el('button', { type: 'button', class: 'button', testid: 'add-question', text: 'Add a question' });
  const live = createLivePanel(core);

  const form = el('form', { class: 'builder-form', novalidate: true, testid: 'builder-form' }, [
    el('fieldset', { class: 'card' }, [
      el('legend', { text: 'Survey' }),
      el('div', { class: 'field-row' }, [
        labelled(meta.id, 'Survey id', 'Appears in links: /s/<id>. Letters, digits, - and _.'),
        labelled(meta.title, 'Title'),
      ]),
      labelled(meta.description, 'Description (shown to respondents)'),
      el('div', { class: 'field-row' }, [
        labelled(meta.results, 'Results', 'Public: anyone with the link. Admin only: needs the admin token.'),
        labelled(meta.access, 'Who can answer', 'Open: anyone with the link. By invitation: one code per report.'),
        labelled(meta.respondents, 'Expected respondents', 'Used by the advisor below.'),
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
    live.show(buildDefinition(readMeta(meta), editors.map((editor) => editor.read())));
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

  replaceChildren(main, [
    el('h1', { text: 'Create a survey' }),
    el('p', { class: 'lead', text: 'Build the survey definition, check each question’s privacy budget and expected precision, then create it on this server.' }),
    el('div', { class: 'builder' }, [form, live.element]),
  ]);
  addQuestion(FIRST_QUESTION);
}

function readMeta(meta) {
  return {
    id: meta.id.value, title: meta.title.value, description: meta.description.value,
    results: meta.results.value, access: meta.access.value,
  };
}

// The right-hand panel: total epsilon, validation, JSON preview, admin token, Create.
function createLivePanel(core) {
  let definition = null;
  let valid = false;
  const total = el('strong', { testid: 'total-epsilon', text: '—' });
  const totalWarning = el('p', { class: 'notice notice-warning epsilon-warning', testid: 'total-epsilon-warning', hidden: true });
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
    if (!valid) return;
    createButton.disabled = true;
    try {
      const created = await requestJson('/api/surveys', { method: 'POST', json: definition, headers: bearer(token.value.trim()) });
      showCreated(result, created, () => token.value.trim());
    } catch (error) {
      replaceChildren(result, el('p', { class: 'notice notice-error', role: 'alert', testid: 'create-error', text: `The survey was not created: ${error.message}` }));
    } finally {
      createButton.disabled = !valid;
    }
  });

  const element = el('aside', { class: 'builder-live', 'aria-label': 'Live check and creation' }, [
    el('section', { class: 'card' }, [
      el('h2', { text: 'Privacy budget' }),
      el('p', {}, ['Whole survey (the questions’ budgets add up): ', total]),
      totalWarning,
      validation,
      el('details', { class: 'raw-report' }, [el('summary', { text: 'Definition (JSON)' }), preview]),
    ]),
    el('section', { class: 'card' }, [el('h2', { text: 'Create' }), createForm, result]),
  ]);

  return {
    element,
    show(nextDefinition) {
      definition = nextDefinition;
      setText(preview, JSON.stringify(definition, null, 2));
      try {
        const parsed = core.parseSurvey(definition);
        valid = true;
        setText(total, formatEpsilon(parsed.total_epsilon));
        showTotalWarning(totalWarning, parsed.total_epsilon);
        showValidation(validation, 'success', 'The definition is valid.');
      } catch (error) {
        valid = false;
        setText(total, '—');
        showTotalWarning(totalWarning, null);
        showValidation(validation, 'error', error.message);
      }
      createButton.disabled = !valid;
    },
  };
}

function showTotalWarning(node, totalEpsilon) {
  const text = largeEpsilonWarning(totalEpsilon, 'survey') ?? '';
  setText(node, text);
  node.hidden = text === '';
}

function showValidation(node, kind, message) {
  node.className = `notice notice-${kind}`;
  node.dataset.state = kind;
  setText(node, message);
}

function showCreated(result, survey, adminToken) {
  const surveyUrl = surveyPageUrl(survey.id);
  const resultsUrl = dashboardUrl(survey.id);
  replaceChildren(result, [
    el('p', { class: 'notice notice-success', role: 'status', testid: 'create-success', text: `Survey “${survey.title}” created.` }),
    el('ul', { class: 'created-links' }, [
      el('li', {}, ['Survey page: ', el('a', { href: surveyUrl, testid: 'created-survey-link', text: surveyUrl })]),
      el('li', {}, ['Results: ', el('a', { href: resultsUrl, testid: 'created-results-link', text: resultsUrl })]),
    ]),
    survey.access === 'invitation' ? createInvitationsPanel(survey.id, adminToken) : null,
  ]);
}

function select(id, testid, choices) {
  return el('select', { id, testid }, choices.map(([value, text]) => el('option', { value, text })));
}

function labelled(input, label, hint) {
  const hintNode = hint ? el('p', { class: 'hint', id: `${input.id}-hint`, text: hint }) : null;
  if (hintNode) input.setAttribute('aria-describedby', hintNode.id);
  const message = input.dataset.number ? attachNumberMessage(input) : null;
  return el('div', { class: 'field' }, [
    el('label', { for: input.id, text: label }),
    input,
    message?.element,
    hintNode,
  ]);
}

start();
