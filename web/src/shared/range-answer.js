// A question answered by a number in a range [a, b] (numeric and histogram
// questions): a slider and a typed number kept in sync, and reading the
// typed answer.
import { richText } from './rich-text.js';
import { el } from './dom.js';
import { decimalsForStep, formatDecimal, formatGrouped, withUnit } from './format.js';
import { attachNumberMessage, numberInput, parseDecimal } from './number-input.js';
import { answerStep, onStepGrid } from './numeric-step.js';
import { t } from './answer-texts.js';

// Each typed field's message slot, so preparing the report can show why a
// typed answer was not taken.
const messages = new WeakMap();

// The fieldset (classes "question question-range" and the kind's
// `className`). The typed field carries the answer (name "answer-<index>"),
// so a keyboard or phone user can enter an exact value; the slider is a
// quicker way to set it. Until the respondent touches either, the question
// counts as unanswered: the slider's starting position must never be sent as
// if it were an answer. The typed field is text read by the shared parser:
// "24,5" is 24.5, and anything it cannot read ("24,5,1", "abc"), outside the
// range or off the question's step is refused with a message next to the
// field, never re-read as another number.
export function renderRangeFieldset(question, index, className) {
  const [low, high] = question.range;
  const step = answerStep(question);
  // Enough decimals for the step and for the low end the steps start from ([0.5, 10.5] in steps of 1: 1.5, 2.5, ...).
  const decimals = Math.max(decimalsForStep(step), decimalsForStep(Math.abs(low)));
  const unit = question.unit ?? '';
  const rangeText = t('range', withUnit(formatGrouped(low, decimals), unit), withUnit(formatGrouped(high, decimals), unit));
  const allowed = { low, high, step: question.step ?? null, rangeText, decimals };
  const hintId = `q${index}-range`;
  const sliderId = `q${index}-slider`;
  const numberId = `q${index}-number`;
  const common = { min: String(low), max: String(high), step: String(step), 'aria-describedby': hintId };
  const slider = el('input', {
    ...common, type: 'range', id: sliderId, value: String(low + (high - low) / 2), testid: `slider-${question.id}`,
    class: 'slider-untouched',
  });
  const number = numberInput({
    id: numberId, name: `answer-${index}`, 'aria-describedby': hintId, testid: `number-${question.id}`,
  });
  const message = attachNumberMessage(number, { check: (text) => checkAnswer(text, allowed) });
  messages.set(number, message);
  syncSliderLabel(slider, unit, decimals, false);
  const takeSlider = () => {
    number.value = formatDecimal(Number(slider.value), decimals);
    message.update();  // clears a message about the text the slider replaced
    slider.classList.remove('slider-untouched');
    syncSliderLabel(slider, unit, decimals, true);
    // The form hears of it as of any answer (progress, the unanswered mark).
    number.dispatchEvent(new Event('change', { bubbles: true }));
  };
  slider.addEventListener('input', takeSlider);
  // A tap or click on the thumb without moving it fires no "input": it still
  // answers with the value shown, once the slider shows it as an answer.
  slider.addEventListener('pointerup', () => {
    if (slider.classList.contains('slider-untouched')) takeSlider();
  });
  number.addEventListener('input', () => {
    const answer = checkAnswer(number.value, allowed);
    if (answer.ok) {
      slider.value = String(answer.value);
      slider.classList.remove('slider-untouched');
      syncSliderLabel(slider, unit, decimals, true);
    }
  });

  return el('fieldset', { class: `question question-range ${className}`, testid: `question-${question.id}`, dataset: { questionId: question.id } }, [
    el('legend', {}, [el('span', { class: 'question-number', text: `${index + 1}.` }), ' ', richText(question.text)]),
    el('p', { class: 'hint', id: hintId, testid: `range-${question.id}`, text: rangeHint(allowed) }),
    el('div', { class: 'numeric-answer' }, [
      el('div', { class: 'field numeric-slider' }, [
        el('label', { for: sliderId, text: t('slide') }),
        slider,
        el('div', { class: 'range-ends', 'aria-hidden': 'true' }, [
          el('span', { text: withUnit(formatGrouped(low, decimals), unit) }),
          el('span', { text: withUnit(formatGrouped(high, decimals), unit) }),
        ]),
      ]),
      el('div', { class: 'field numeric-typed' }, [
        el('label', { for: numberId, text: unit ? t('typeItIn', unit) : t('typeIt') }),
        el('div', { class: 'number-with-unit' }, [number, unit ? el('span', { class: 'unit', 'aria-hidden': 'true', text: unit }) : null]),
        message.element,
      ]),
    ]),
  ]);
}

// Screen readers announce the value with its unit, or that none is chosen yet.
function syncSliderLabel(slider, unit, decimals, touched) {
  const text = touched ? withUnit(formatGrouped(Number(slider.value), decimals), unit) : t('notAnswered');
  slider.setAttribute('aria-valuetext', text);
}

// What the respondent may enter, in words.
function rangeHint({ low, step, rangeText, decimals }) {
  if (step === null) return t('anyValue', rangeText);
  if (step === 1 && Number.isInteger(low)) return t('wholeFrom', rangeText);
  return t('stepFrom', rangeText, formatDecimal(step, decimals));
}

// The typed answer as {ok, value} or {ok: false, message}: a number the
// shared parser reads ("24,5" is 24.5), in the range, and on the question's
// step when it declares one (the core refuses other answers).
function checkAnswer(text, { low, high, step, rangeText, decimals }) {
  const parsed = parseDecimal(text);
  if (!parsed.ok) return parsed;
  if (parsed.value < low || parsed.value > high) {
    return { ok: false, message: t('outside', typedValue(parsed.value), rangeText) };
  }
  if (step !== null && !onStepGrid(parsed.value, low, step)) {
    const below = low + Math.floor((parsed.value - low) / step) * step;
    const nearby = [below, below + step].filter((x) => x >= low && x <= high).map((x) => formatDecimal(x, decimals));
    return {
      ok: false,
      message: t('offStep', typedValue(parsed.value), formatDecimal(step, decimals), nearby.join(t('or'))),
    };
  }
  return parsed;
}

// A typed number as read, in the page's locale and without grouping ("324.5", "324,5" in French).
function typedValue(value) {
  return formatDecimal(value, 12);
}

// The typed value when it is a number in the range, else null (unanswered;
// a typed text that was refused shows its message next to the field).
export function readRangeAnswer(form, index) {
  const input = form.querySelector(`input[name="answer-${index}"]`);
  if (!input) return null;
  const message = messages.get(input);
  if (input.value.trim() !== '') message?.update();
  const answer = message ? message.check() : { ok: false };
  return answer.ok ? answer.value : null;
}

// Added to "Please answer every question" when such a question is unanswered:
// a function (the page calls a kind's hint that is one), so that it is read in
// the page's language when shown, not when this module is loaded.
export const RANGE_UNANSWERED_HINT = () => t('unanswered');
