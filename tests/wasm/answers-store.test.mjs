// Save and resume's store (web/src/survey/answers-store.js), on a stand-in
// localStorage: kept per survey and version, dropped after KEEP_DAYS, cleared
// by forgetAnswers, nothing kept for an untouched form or in a preview, and a
// browser that refuses to store says so (the page then warns on leaving).
import assert from 'node:assert/strict';
import { test } from 'node:test';

const items = new Map();
globalThis.localStorage = {
  getItem: (key) => (items.has(key) ? items.get(key) : null),
  setItem: (key, value) => {
    if (globalThis.refuseStorage) throw new Error('QuotaExceededError');
    items.set(key, String(value));
  },
  removeItem: (key) => items.delete(key),
};
const { disableAnswersStore, forgetAnswers, KEEP_DAYS, loadAnswers, saveAnswers } = await import('../../web/src/survey/answers-store.js');

const SURVEY = { id: 'long', version: 2 };
const CONTROLS = [{ name: 'answer-0', value: '1', checked: true }, { name: 'answer-2', value: '7.5' }];
const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 28);

test('answers are kept per survey and version, and cleared', () => {
  assert.equal(saveAnswers(SURVEY, CONTROLS, NOW), true);
  assert.deepEqual(loadAnswers(SURVEY, NOW + DAY), CONTROLS);
  assert.equal(loadAnswers({ id: 'long', version: 3 }, NOW), null, 'another version asks other questions');
  assert.equal(loadAnswers({ id: 'other', version: 2 }, NOW), null);
  forgetAnswers(SURVEY);
  assert.equal(loadAnswers(SURVEY, NOW), null);
  assert.equal(items.size, 0);
});

test('an untouched form keeps nothing, and answers left too long are dropped', () => {
  assert.equal(saveAnswers(SURVEY, [], NOW), false);
  assert.equal(items.size, 0);
  saveAnswers(SURVEY, CONTROLS, NOW);
  assert.deepEqual(loadAnswers(SURVEY, NOW + KEEP_DAYS * DAY), CONTROLS);
  assert.equal(loadAnswers(SURVEY, NOW + KEEP_DAYS * DAY + 1), null);
  assert.equal(items.size, 0, 'dropped from the device, not only ignored');
});

test('a browser that refuses to store says so; a preview stores nothing', () => {
  globalThis.refuseStorage = true;
  assert.equal(saveAnswers(SURVEY, CONTROLS, NOW), false);
  globalThis.refuseStorage = false;
  disableAnswersStore();
  assert.equal(saveAnswers(SURVEY, CONTROLS, NOW), false);
  assert.equal(items.size, 0);
  assert.equal(loadAnswers(SURVEY, NOW), null);
});
