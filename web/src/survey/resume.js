// Save and resume on the survey page: the questions' controls saved on each
// change (answers-store.js: this device only), put back when the page is
// opened again, with a notice that says where they are and a button that
// clears them. Any kind is saved alike: what is kept is each named control
// that differs from how the page drew it (a ticked option, a typed number,
// a changed privacy choice), so an untouched form keeps nothing.
import { el } from '../shared/dom.js';
import { forgetAnswers, loadAnswers, saveAnswers } from './answers-store.js';
import { t } from './texts.js';

const CONTROLS = 'input[name], select[name], textarea[name]';

function isChoice(control) {
  return control.type === 'radio' || control.type === 'checkbox';
}

function differsFromDrawn(control) {
  if (isChoice(control)) return control.checked !== control.defaultChecked;
  if (control.tagName === 'SELECT') return [...control.options].some((option) => option.selected !== option.defaultSelected);
  return control.value !== control.defaultValue;
}

// [{name, value, checked?}]: the controls the respondent changed.
function snapshot(form) {
  return [...form.querySelectorAll(CONTROLS)].filter(differsFromDrawn).map((control) => (isChoice(control)
    ? { name: control.name, value: control.value, checked: control.checked }
    : { name: control.name, value: control.value }));
}

// Events as the respondent's own would fire them, so that each kind's
// listeners (a skip box, a live privacy figure, a range check) follow.
function announce(controls) {
  for (const control of controls) {
    control.dispatchEvent(new Event('input', { bubbles: true }));
    control.dispatchEvent(new Event('change', { bubbles: true }));
  }
}

function putBack(form, saved) {
  const changed = [];
  for (const entry of saved) {
    const named = [...form.querySelectorAll(CONTROLS)].filter((control) => control.name === entry.name);
    const control = named.find((candidate) => !isChoice(candidate) || candidate.value === entry.value);
    if (!control) continue;
    if (isChoice(control)) control.checked = entry.checked === true;
    else control.value = String(entry.value ?? '');
    changed.push(control);
  }
  announce(changed);
  return changed.length > 0;
}

// `form`: the questions. Returns {element (the notice, hidden until
// something is kept), restore() (puts back what this device kept; true if
// anything), forget() (the report is prepared or sent: nothing is kept),
// kept() (whether this device holds answers now)}.
export function createResume(form, survey) {
  let quiet = false;  // while the page itself sets the controls
  let kept = false;   // whether this device now holds the answers
  const text = el('span', { testid: 'answers-stored-text' });
  const clear = el('button', { type: 'button', class: 'button button-small', testid: 'clear-answers', text: t('clearAnswers') });
  const element = el('p', { class: 'notice answers-stored', testid: 'answers-stored', role: 'status', tabindex: '-1', hidden: true }, [text, ' ', clear]);
  const say = (words, withButton = true) => {
    text.textContent = words;
    clear.hidden = !withButton;
    element.hidden = false;
  };
  const save = () => {
    if (quiet) return;
    kept = saveAnswers(survey, snapshot(form));
    if (kept) say(t('answersStored'));
    else element.hidden = true;
  };
  form.addEventListener('input', save);
  form.addEventListener('change', save);
  clear.addEventListener('click', () => {
    forgetAnswers(survey);
    kept = false;
    quiet = true;
    form.reset();
    announce([...form.querySelectorAll(CONTROLS)]);
    quiet = false;
    say(t('answersCleared'), false);
    element.focus();
  });
  return {
    element,
    restore() {
      const saved = loadAnswers(survey);
      if (!saved) return false;
      quiet = true;
      const restored = putBack(form, saved);
      quiet = false;
      kept = restored;
      if (restored) say(t('answersRestored'));
      return restored;
    },
    forget() {
      forgetAnswers(survey);
      kept = false;
      element.hidden = true;
    },
    kept: () => kept,
  };
}
