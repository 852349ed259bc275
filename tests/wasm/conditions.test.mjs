// Conditions ("show_if"): the survey page decides what to show in JavaScript
// (web/src/survey/conditions.js), before its client core has arrived; the
// core decides what a report may hold (core/survey/conditions.cc), in the
// client module that prepares the report and in the full one. Both must
// agree on every case: for each answer to the open question named, the page
// shows the follow-up exactly when the core wants it answered (answering it
// then works and leaving it out is refused), and hides it exactly when the
// core refuses an answer to it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadClientCore } from '../../web/src/core-client.js';
import { loadCore } from '../../web/src/core.js';
import { hiddenQuestions, questionShown } from '../../web/src/survey/conditions.js';

const SURVEY = {
  format: 'deniable.survey/v1', id: 'cond', version: 1, title: 'Conditions', description: '', results: 'public', access: 'open',
  questions: [
    { id: 'smoker', text: 'Do you smoke?', type: 'categorical', options: ['Yes', 'Sometimes', 'No'], privacy: 'open' },
    { id: 'age', text: 'Age?', type: 'numeric', range: [0, 120], step: 0.5, privacy: 'open' },
    { id: 'packs', text: 'Packs?', type: 'categorical', options: ['1', '2+'], mechanism: { name: 'grr', epsilon: 1 },
      show_if: { question: 'smoker', any_of: ['Yes', 'Sometimes'] } },
    { id: 'young', text: 'At school?', type: 'categorical', options: ['Yes', 'No'], mechanism: { name: 'grr', epsilon: 1 },
      show_if: { question: 'age', at_least: 12, at_most: 19.5 } },
    { id: 'old', text: 'Retired?', type: 'categorical', options: ['Yes', 'No'], mechanism: { name: 'grr', epsilon: 1 },
      show_if: { question: 'age', at_least: 60 } },
  ],
};
const FOLLOW_UPS = ['packs', 'young', 'old'];

// Every option of smoker, and ages on and around each bound.
function* cases() {
  for (const smoker of [0, 1, 2]) {
    for (const age of [0, 11.5, 12, 15, 19.5, 20, 59.5, 60, 120]) yield { smoker, age };
  }
}

// What the core says of `id` with these open answers: 'shown' (answering
// it works, leaving it out is refused), 'hidden' (the reverse), or what else.
function coreSays(core, open, id) {
  const others = Object.fromEntries(FOLLOW_UPS.filter((other) => other !== id)
    .filter((other) => questionShown(SURVEY, SURVEY.questions.find((q) => q.id === other), open)).map((other) => [other, 0]));
  const attempt = (answers) => {
    try {
      core.perturbSeeded(SURVEY, answers, '1');
      return 'ok';
    } catch (error) {
      return error.message;
    }
  };
  const answered = attempt({ ...open, ...others, [id]: 1 });
  const left = attempt({ ...open, ...others });
  if (answered === 'ok' && /not answered/.test(left)) return 'shown';
  if (left === 'ok' && /asked only when/.test(answered)) return 'hidden';
  return `answered: ${answered}; left out: ${left}`;
}

for (const [name, load] of [['client module', loadClientCore], ['full module', loadCore]]) {
  test(`the page's conditions agree with the core's (${name})`, async () => {
    const core = await load();
    let hidden = 0;
    for (const open of cases()) {
      for (const id of FOLLOW_UPS) {
        const question = SURVEY.questions.find((candidate) => candidate.id === id);
        const page = questionShown(SURVEY, question, open) ? 'shown' : 'hidden';
        assert.equal(coreSays(core, open, id), page, `${id} with ${JSON.stringify(open)}`);
        if (page === 'hidden') hidden += 1;
      }
    }
    assert.ok(hidden > 10 && hidden < 27 * 3 - 10, `both sides covered (${hidden} hidden of 81)`);
  });
}

test('the page hides a question whose named question is skipped or itself hidden', () => {
  const chained = { questions: [...SURVEY.questions.slice(0, 3),
    { id: 'brand', text: 'Brand?', type: 'categorical', options: ['A', 'B'], privacy: 'open', show_if: { question: 'smoker', any_of: ['Yes'] } },
    { id: 'why', text: 'Why B?', type: 'categorical', options: ['x', 'y'], mechanism: { name: 'grr', epsilon: 1 }, show_if: { question: 'brand', any_of: ['B'] } }] };
  assert.deepEqual(hiddenQuestions(chained, { smoker: 0, brand: 1 }), []);
  assert.deepEqual(hiddenQuestions(chained, { smoker: 0, brand: 0 }), [4]);
  assert.deepEqual(hiddenQuestions(chained, { smoker: 2 }), [2, 3, 4]);
  assert.deepEqual(hiddenQuestions(chained, {}), [2, 3, 4]);
  assert.deepEqual(hiddenQuestions(chained, { smoker: null }), [2, 3, 4]);
});
