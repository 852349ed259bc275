import { definitionNumber } from '../shared/number-input.js';
import { createKind } from './kinds.js';
import { buildShowIf, showIfValues } from './show-if-field.js';

// Turns the creation form's values into a survey definition (common.md
// "Formats"). No validation here: the core's parseSurvey is the judge, and
// its message is shown next to the preview. Each question's kind builds its
// own fields (kinds/<type>/create.js: buildDefinition).

export const SURVEY_FORMAT = 'deniable.survey/v1';

// `values`: an editor's id, text, type, ε text and required flag plus its
// kind's own values, and who sees the answer (privacy 'local', 'central' or 'open',
// the budget text and whether admins see exact counts). A question answered
// in confidence (a kind with `supportsConfidential`) has no mechanism: its
// privacy is its publication budget. A question asked openly (a kind with
// `supportsOpen`) has neither: its answer is sent as given.
export function buildQuestion(values) {
  const kind = createKind(values.type);
  const own = kind.buildDefinition(values);
  const central = values.privacy === 'central' && kind.supportsConfidential === true;
  const open = values.privacy === 'open' && kind.supportsOpen === true;
  if (central || open) delete own.mechanism;
  return {
    id: values.id.trim(),
    text: values.text.trim(),
    type: values.type,
    ...own,
    ...(central ? { privacy: 'central', budget: definitionNumber(values.budget), admin_sees_counts: values.adminSeesCounts === true } : {}),
    ...(open ? { privacy: 'open' } : {}),
    // Absent means required; the canonical definition says only "false".
    ...(values.required === false ? { required: false } : {}),
    ...(buildShowIf(values.showIf) ? { show_if: buildShowIf(values.showIf) } : {}),
  };
}

// `meta.version`: 1 for a new survey, the next version for a copy;
// `meta.language`: an optional BCP 47 tag (e.g. "fr"), left out when empty.
export function buildDefinition(meta, questions) {
  const language = (meta.language ?? '').trim();
  return {
    format: SURVEY_FORMAT,
    id: meta.id.trim(),
    version: meta.version ?? 1,
    title: meta.title.trim(),
    description: meta.description.trim(),
    ...(language ? { language } : {}),
    results: meta.results,
    access: meta.access,
    questions: questions.map(buildQuestion),
  };
}

// The editor's values of a question of a survey's definition (a new version
// made as a copy): the common fields here, the kind's own from its create
// module's editorValues.
export function editorValuesOf(question) {
  const kind = createKind(question.type);
  const own = kind.editorValues?.(question) ?? {};
  return {
    ...own,
    id: question.id,
    text: question.text ?? '',
    type: question.type,
    epsilon: own.epsilon ?? '1',
    required: question.required !== false,
    privacy: question.privacy === 'central' || question.privacy === 'open' ? question.privacy : 'local',
    budget: question.budget === undefined ? undefined : String(question.budget),
    adminSeesCounts: question.admin_sees_counts === true,
    showIf: showIfValues(question.show_if),
  };
}

// The core's reading of one question on its own: {ok: true, epsilon (null:
// no formal ε), summary (the core's page summary of the question),
// definition (the one-question survey checked, for the kind's further calls
// to the core, e.g. design advice)} or {ok: false, message}. An empty id or
// text is filled in, so that only the question's own fields are judged.
export function checkQuestion(core, values) {
  // Alone, a condition names no earlier question: the whole survey's check judges it.
  const question = buildQuestion({ ...values, id: values.id.trim() || 'q', text: values.text.trim() || 'q', showIf: null });
  const definition = {
    format: SURVEY_FORMAT, id: 'preview', version: 1, title: 'preview', description: '',
    results: 'public', access: 'open', questions: [question],
  };
  try {
    const parsed = core.parseSurvey(definition);
    return { ok: true, epsilon: parsed.questions[0].epsilon, summary: parsed.questions[0], definition };
  } catch (error) {
    // The check ran on a one-question survey: its "questions[0]." prefix would misname this question.
    return { ok: false, message: error.message.replace(/^questions\[0\]\.?\s*/, '') };
  }
}

// The core's reading of one question after the survey's earlier questions
// (`earlier`: their editors' values), for a kind whose question refers to
// them (e.g. a model's variables): as checkQuestion, the summary being this
// question's. A problem in an earlier question is named as such.
export function checkQuestionInSurvey(core, values, earlier) {
  const questions = [...earlier, values].map((entry, position) => buildQuestion({
    ...entry, id: entry.id.trim() || `q${position + 1}`, text: entry.text.trim() || 'q',
  }));
  const definition = {
    format: SURVEY_FORMAT, id: 'preview', version: 1, title: 'preview', description: '',
    results: 'public', access: 'open', questions,
  };
  const last = questions.length - 1;
  try {
    const parsed = core.parseSurvey(definition);
    return { ok: true, epsilon: parsed.questions[last].epsilon, summary: parsed.questions[last], definition };
  } catch (error) {
    const match = /^questions\[(\d+)\]\.?\s*/.exec(error.message);
    if (!match) return { ok: false, message: error.message };
    const rest = error.message.slice(match[0].length);
    const position = Number(match[1]);
    return { ok: false, message: position === last ? rest : `question ${position + 1} is not valid yet (${rest})` };
  }
}
