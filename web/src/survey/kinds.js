import { kindOf } from '../kinds/registry.js';

// The survey page's module of each question kind (kinds/<type>/survey.js),
// each a chunk of its own fetched only when the survey asks such a question
// (a phone on a slow link should not wait for kinds the survey does not
// use). loadSurveyKinds(survey) fetches them once the definition is known;
// surveyKind(type) is then the module, at once.
const loaders = import.meta.glob('../kinds/*/survey.js');
const loaded = new Map();  // the kind's index.js -> its survey module

function loaderOf(kind) {
  const suffix = `/${kind.name}/survey.js`;
  const path = Object.keys(loaders).find((candidate) => candidate.endsWith(suffix));
  if (!path) throw new Error(`the ${kind.name} question kind has no survey module (web/src/kinds/${kind.name}/survey.js)`);
  return loaders[path];
}

// Fetches the module of every kind the survey's questions use, and what each
// module needs for its questions (a kind's optional loadFor(question), e.g. a
// numeric question's levels code only when it uses levels). Throws for an
// unknown type, as surveyKind would.
export async function loadSurveyKinds(survey) {
  const kinds = [...new Set(survey.questions.map((question) => kindOf(question.type)))];
  await Promise.all(kinds.filter((kind) => !loaded.has(kind)).map(async (kind) => {
    loaded.set(kind, await loaderOf(kind)());
  }));
  await Promise.all(survey.questions.map((question) => surveyKind(question.type).loadFor?.(question)));
}

// The survey module of a question's kind; its kind must have been loaded
// (loadSurveyKinds) for this survey.
export function surveyKind(typeName) {
  const module = loaded.get(kindOf(typeName));
  if (!module) throw new Error(`the survey module of "${kindOf(typeName).name}" questions was not loaded`);
  return module;
}
