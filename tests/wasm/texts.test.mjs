// The survey page's fixed text in every language it offers (web/src/shared/i18n.js): every module's
// texts file (web/src/**/*texts.js) has, in each language, exactly the English keys, and a function entry
// takes the same arguments and gives a non-empty text; a plain entry is a non-empty string.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LANGUAGES, loadTranslations, setLanguage } from '../../web/src/shared/i18n.js';

const WEB = join(dirname(fileURLToPath(import.meta.url)), '../../web/src');

function textsFiles(directory) {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return textsFiles(path);
    return /texts\.js$/.test(entry.name) ? [path] : [];
  });
}

const SAMPLE_ARGUMENTS = [3, 7, 'x', 'y', 'z'];

test('every texts file has every English key in every language, with the same arguments', async () => {
  const files = textsFiles(WEB);
  // The page's own, and at least the kinds that speak to respondents.
  assert.ok(files.some((file) => file.endsWith('survey/texts.js')), 'web/src/survey/texts.js');
  assert.ok(files.length >= 6, `texts files found: ${files.map((file) => relative(WEB, file)).join(', ')}`);
  for (const file of files) {
    const name = relative(WEB, file);
    const { t } = await import(pathToFileURL(file).href);
    assert.equal(typeof t?.dictionaries, 'object', `${name} exports t = texts({...})`);
    // The languages a module keeps in files of their own (the survey page's first download).
    for (const language of LANGUAGES) await loadTranslations(language);
    const english = t.dictionaries.en;
    for (const language of LANGUAGES) {
      const dictionary = t.dictionaries[language];
      assert.ok(dictionary, `${name}: no "${language}" dictionary`);
      assert.deepEqual(Object.keys(dictionary).sort(), Object.keys(english).sort(), `${name}: "${language}" keys differ from English`);
      setLanguage(language);
      for (const [key, entry] of Object.entries(english)) {
        const translated = dictionary[key];
        assert.equal(typeof translated, typeof entry, `${name} ${language}.${key}: a ${typeof entry} in English`);
        if (typeof entry === 'function') {
          assert.equal(translated.length, entry.length, `${name} ${language}.${key}: arguments`);
          const text = t(key, ...SAMPLE_ARGUMENTS.slice(0, entry.length));
          assert.ok(typeof text === 'string' && text.trim().length > 0, `${name} ${language}.${key}: gives text`);
        } else {
          assert.ok(translated.trim().length > 0, `${name} ${language}.${key}: empty`);
        }
      }
    }
  }
  setLanguage('en');
});

test('t falls back to English for a language without a dictionary and refuses an unknown key', async () => {
  const { t } = await import('../../web/src/survey/texts.js');
  await loadTranslations('fr-CA');
  assert.equal(setLanguage('de-CH'), 'de-CH');
  assert.equal(t('prepare'), 'Prepare my report');
  setLanguage('fr-CA');
  assert.equal(t('prepare'), 'Préparer mon rapport');
  assert.throws(() => t('no-such-key'), /no text "no-such-key"/);
  setLanguage('en');
});
