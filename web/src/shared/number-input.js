import { el, setText } from './dom.js';
import { formatDecimal } from './format.js';
import { t } from './answer-texts.js';

// Every typed number on the pages goes through here. The fields are
// <input type="text" inputmode="decimal|numeric">, not type="number": Chromium's
// number field silently drops a decimal comma ("1,5" became 15), and its value
// is "" for anything it cannot read, so the page could not say what was wrong.
// A number is read only when it is unambiguous: "1.5" and "1,5" are 1.5;
// anything else ("1,500.2", "1.5.2", "abc", "", and "1,500", which could be
// 1500 or 1.5) is refused with a message, never re-read as something else.

// An optional exponent ("1e-5", "2,5e3") is unambiguous too: smoothing penalties are written so.
const DECIMAL = /^[+-]?(\d+([.,]\d+)?|[.,]\d+)(e[+-]?\d+)?$/i;
const WHOLE = /^[+-]?\d+$/;

// Text to {ok: true, value} or {ok: false, message}. Surrounding spaces are
// ignored; the minus sign may be "-" or "−" (U+2212).
export function parseDecimal(text) {
  const trimmed = normalise(text);
  if (trimmed === '') return refuse(t('enterNumber'));
  // "1,500" means 1500 in English and 1.5 elsewhere: asked, not guessed.
  if (/^[+-]?\d+,\d{3}$/.test(trimmed)) {
    const [whole, fraction] = trimmed.split(',');
    // The decimal reading in the page's locale ("1,5" in French, without grouping) and with a point ("1.5").
    const decimal = Number(`${whole}.${fraction}`);
    return refuse(t('ambiguous', trimmed, `${whole}${fraction}`, formatDecimal(decimal, 12), String(decimal)));
  }
  if (DECIMAL.test(trimmed)) return accept(Number(trimmed.replace(',', '.')));
  const separators = trimmed.match(/[.,]/g) ?? [];
  if (/^[+-]?[\d.,]+$/.test(trimmed) && separators.length > 1) {
    return refuse(t('separators', trimmed, String(separators.length), t('example')));
  }
  return refuse(t('notNumber', trimmed, t('example')));
}

// A whole number ("12"): "1,5", "1.5" and "1,000" are refused, not re-read.
export function parseWholeNumber(text) {
  const trimmed = normalise(text);
  if (trimmed === '') return refuse(t('enterWhole'));
  if (WHOLE.test(trimmed)) return accept(Number(trimmed));
  return refuse(t('notWhole', trimmed));
}

// The value, or undefined when the text is not a number (for building definitions).
export function decimalOrUndefined(text, whole = false) {
  const parsed = whole ? parseWholeNumber(text) : parseDecimal(text);
  return parsed.ok ? parsed.value : undefined;
}

// A number field's value for a survey definition, read by the shared parser
// ("1,5" is 1.5). An empty field gives undefined (left out, so the core names
// it as missing); an unreadable one is kept as its text, so the core refuses
// it naming the field (never dropped: an unreadable γ must not quietly turn
// into the published RVNS). The field itself says what is wrong with its text.
export function definitionNumber(text, whole = false) {
  const trimmed = String(text ?? '').trim();
  if (trimmed === '') return undefined;
  return decimalOrUndefined(trimmed, whole) ?? trimmed;
}

function normalise(text) {
  return String(text ?? '').trim().replace(/^\u2212/, '-');
}

function accept(value) {
  return Number.isFinite(value) ? { ok: true, value } : refuse(t('tooLarge'));
}

function refuse(message) {
  return { ok: false, message };
}

// A text field for a number. `whole` asks for digits only (the phone shows
// its digit keypad); otherwise the decimal keypad, with a point or a comma.
export function numberInput({ id, value = '', testid, whole = false, ...attributes }) {
  return el('input', {
    id, type: 'text', inputmode: whole ? 'numeric' : 'decimal', autocomplete: 'off', spellcheck: 'false',
    value, testid, dataset: { number: whole ? 'whole' : 'decimal' }, ...attributes,
  });
}

// The message slot next to a number field, tied to it by aria-describedby
// (after any ids it already had, e.g. the hint) and aria-invalid. `check`
// turns the text into {ok, value} or {ok: false, message}; by default the
// field's own parser. Returns {element, update()}: update() re-checks the
// field now (the page also re-checks on every input and on change).
//
// While typing, a text that can still become a number ("", "-", "1.", "1,")
// shows no message until the field is left (change); a wrong text shows its
// message at once, and a corrected one clears it at once.
export function attachNumberMessage(input, { check, testid } = {}) {
  const messageId = `${input.id}-message`;
  const message = el('p', { class: 'field-error', id: messageId, testid: testid ?? `${input.dataset.testid ?? input.id}-message`, hidden: true });
  const parse = check ?? ((text) => (input.dataset.number === 'whole' ? parseWholeNumber(text) : parseDecimal(text)));
  const describedBy = (input.getAttribute('aria-describedby') ?? '').split(/\s+/).filter((token) => token && token !== messageId);
  input.setAttribute('aria-describedby', [...describedBy, messageId].join(' '));

  const show = (text) => {
    setText(message, text);
    message.hidden = text === '';
    if (text === '') input.removeAttribute('aria-invalid');
    else input.setAttribute('aria-invalid', 'true');
  };
  const update = (finished) => {
    if (input.disabled) return show('');
    const result = parse(input.value);
    if (result.ok) return show('');
    if (finished || !stillTyping(input.value)) show(result.message);
    else if (!message.hidden) show(result.message);
  };
  input.addEventListener('input', () => update(false));
  input.addEventListener('change', () => update(true));
  return { element: message, update: () => update(true), check: () => parse(input.value) };
}

// A prefix that can still become a valid number.
function stillTyping(text) {
  return /^[+\-\u2212]?\d*[.,]?$/.test(String(text).trim());
}
