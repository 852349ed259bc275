// The survey page's fixed text in the survey's language ("language": a BCP 47
// tag in the definition; absent = English), chosen by its primary subtag.
// Numbers are formatted for the same language (format.js setNumberLocale).
//
// Each module owns its words: it calls texts({en: {...}, fr: {...}}) once and
// gets its own t(key, ...args). A module on the survey page's first download
// keeps its other languages in files of their own instead,
// texts({en: {...}}, {fr: () => import('./texts.fr.js')}), so an English
// survey never downloads French (issue 32): loadTranslations(tag) fetches
// them, and the page awaits it before the first text is shown. English is the default and the fallback for
// an entry missing in another language; every language the page offers
// should have every English key (tests/wasm/texts.test.mjs checks that for
// every *texts.js module).

// The languages the page's fixed text is written in.
export const LANGUAGES = Object.freeze(['en', 'fr']);

let language = 'en';
let primary = 'en';
// Every t made with translations kept apart (texts' second argument).
const deferred = [];

function validTag(tag) {
  return typeof tag === 'string' && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(tag) ? tag : 'en';
}

function primaryOf(tag) {
  const subtag = validTag(tag).split('-')[0].toLowerCase();
  return LANGUAGES.includes(subtag) ? subtag : 'en';
}

// Chooses the language for a BCP 47 tag; returns the tag used for the page's lang.
export function setLanguage(tag) {
  language = validTag(tag);
  primary = primaryOf(language);
  return language;
}

// Loads the translations for a BCP 47 tag's language that the texts modules
// imported so far keep in files of their own; resolves once every one is in
// its module's dictionaries (nothing to load for English).
export async function loadTranslations(tag) {
  const wanted = primaryOf(tag);
  await Promise.all(deferred.map(async (t) => {
    const load = t.translations[wanted];
    if (load && !t.dictionaries[wanted]) t.dictionaries[wanted] = (await load()).default;
  }));
}

export function currentLanguage() {
  return language;
}

// A module's t: the text `key` in the current language (a function entry's
// result when given arguments). An unknown key is a programming error.
// translations: {language: () => import(file)} for the languages not in
// dictionaries (each file's default export is that language's dictionary).
export function texts(dictionaries, translations = {}) {
  const t = (key, ...args) => {
    const entry = dictionaries[primary]?.[key] ?? dictionaries.en[key];
    if (entry === undefined) throw new Error(`no text "${key}"`);
    return typeof entry === 'function' ? entry(...args) : entry;
  };
  t.dictionaries = dictionaries;
  t.translations = translations;
  if (Object.keys(translations).length > 0) deferred.push(t);
  return t;
}

export function formatDate(date) {
  try {
    return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'short' }).format(date);
  } catch {
    return date.toISOString();
  }
}
