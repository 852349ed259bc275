// The survey page's fixed text in the survey's language ("language": a BCP 47
// tag in the definition; absent = English), chosen by its primary subtag.
// Numbers are formatted for the same language (format.js setNumberLocale).
//
// Each module owns its words: it calls texts({en: {...}, fr: {...}}) once and
// gets its own t(key, ...args). English is the default and the fallback for
// an entry missing in another language; every language the page offers
// should have every English key (tests/wasm/texts.test.mjs checks that for
// every *texts.js module).

// The languages the page's fixed text is written in.
export const LANGUAGES = Object.freeze(['en', 'fr']);

let language = 'en';
let primary = 'en';

// Chooses the language for a BCP 47 tag; returns the tag used for the page's lang.
export function setLanguage(tag) {
  const valid = typeof tag === 'string' && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(tag) ? tag : 'en';
  language = valid;
  const subtag = valid.split('-')[0].toLowerCase();
  primary = LANGUAGES.includes(subtag) ? subtag : 'en';
  return valid;
}

export function currentLanguage() {
  return language;
}

// A module's t: the text `key` in the current language (a function entry's
// result when given arguments). An unknown key is a programming error.
export function texts(dictionaries) {
  const t = (key, ...args) => {
    const entry = dictionaries[primary]?.[key] ?? dictionaries.en[key];
    if (entry === undefined) throw new Error(`no text "${key}"`);
    return typeof entry === 'function' ? entry(...args) : entry;
  };
  t.dictionaries = dictionaries;
  return t;
}

export function formatDate(date) {
  try {
    return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'short' }).format(date);
  } catch {
    return date.toISOString();
  }
}
