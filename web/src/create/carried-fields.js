import { buildQuestion, editorValuesOf } from './definition-builder.js';

// A new version made as a copy keeps the settings of the original that the
// builder has no field for (e.g. a block's joint_order, a model's ridge):
// those the builder's own reading of the original question leaves out, at
// the top of the question or in its mechanism. They are added back to the
// question of the same id, type and mechanism while it has them; a field the
// builder does edit (a unit, a step) is never carried, so clearing it stays
// cleared.
export function carriedFields(originalQuestions) {
  const carried = new Map();
  for (const original of originalQuestions ?? []) {
    let built;
    try {
      built = buildQuestion(editorValuesOf(original));
    } catch {
      continue;
    }
    const top = pick(original, built);
    const mechanism = isObject(original.mechanism) && isObject(built.mechanism) ? pick(original.mechanism, built.mechanism) : {};
    const names = [...Object.keys(top), ...Object.keys(mechanism).map((key) => `mechanism.${key}`)];
    if (names.length > 0) carried.set(original.id, { type: original.type, mechanismName: original.mechanism?.name, top, mechanism, names });
  }
  return carried;
}

// The definition with the carried fields added to the questions they belong to.
export function withCarriedFields(definition, carried) {
  if (!carried || carried.size === 0) return definition;
  return {
    ...definition,
    questions: definition.questions.map((question) => {
      const entry = carried.get(question.id);
      if (!entry || entry.type !== question.type) return question;
      const next = { ...entry.top, ...question };
      if (isObject(question.mechanism) && question.mechanism.name === entry.mechanismName) {
        next.mechanism = { ...question.mechanism, ...withoutKeys(entry.mechanism, question.mechanism) };
      }
      return next;
    }),
  };
}

// "profile: joint_order, mechanism.share_bounds; pay_model: clip, ridge"
export function describeCarried(carried) {
  return [...carried].map(([id, entry]) => `${id}: ${entry.names.join(', ')}`).join('; ');
}

function pick(original, built) {
  return Object.fromEntries(Object.entries(original).filter(([key]) => !(key in built)));
}

function withoutKeys(fields, present) {
  return Object.fromEntries(Object.entries(fields).filter(([key]) => !(key in present)));
}

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
