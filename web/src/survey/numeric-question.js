import { el } from '../shared/dom.js';
import { decimalsForStep, formatDecimal, withUnit } from '../shared/format.js';
import { stepForRange } from '../shared/numeric-step.js';

// A numeric question: a slider and a typed number kept in sync. The typed
// field carries the answer (name "answer-<index>"), so a keyboard or phone
// user can enter an exact value; the slider is a quicker way to set it. Until
// the respondent touches either, the question counts as unanswered: the
// slider's starting position must never be sent as if it were an answer.
export function renderNumericQuestion(question, index) {
  const [low, high] = question.range;
  const step = stepForRange(low, high);
  const decimals = decimalsForStep(step);
  const unit = question.unit ?? '';
  const rangeText = `${withUnit(formatDecimal(low, decimals), unit)} to ${withUnit(formatDecimal(high, decimals), unit)}`;
  const hintId = `q${index}-range`;
  const sliderId = `q${index}-slider`;
  const numberId = `q${index}-number`;
  const common = { min: String(low), max: String(high), step: String(step), 'aria-describedby': hintId };
  const slider = el('input', {
    ...common, type: 'range', id: sliderId, value: String(low + (high - low) / 2), testid: `slider-${question.id}`,
  });
  const number = el('input', {
    ...common, type: 'number', id: numberId, name: `answer-${index}`, inputmode: 'decimal', autocomplete: 'off',
    testid: `number-${question.id}`,
  });
  syncSliderLabel(slider, unit, decimals, false);
  slider.addEventListener('input', () => {
    number.value = formatDecimal(Number(slider.value), decimals);
    syncSliderLabel(slider, unit, decimals, true);
  });
  number.addEventListener('input', () => {
    const value = Number(number.value);
    if (number.value.trim() !== '' && Number.isFinite(value) && value >= low && value <= high) {
      slider.value = String(value);
      syncSliderLabel(slider, unit, decimals, true);
    }
  });

  return el('fieldset', { class: 'question question-numeric', testid: `question-${question.id}`, dataset: { questionId: question.id } }, [
    el('legend', {}, [el('span', { class: 'question-number', text: `${index + 1}.` }), ` ${question.text}`]),
    el('p', { class: 'hint', id: hintId, testid: `range-${question.id}`, text: `Any value from ${rangeText}.` }),
    el('div', { class: 'numeric-answer' }, [
      el('div', { class: 'field numeric-slider' }, [
        el('label', { for: sliderId, text: 'Slide to your answer' }),
        slider,
        el('div', { class: 'range-ends', 'aria-hidden': 'true' }, [
          el('span', { text: withUnit(formatDecimal(low, decimals), unit) }),
          el('span', { text: withUnit(formatDecimal(high, decimals), unit) }),
        ]),
      ]),
      el('div', { class: 'field numeric-typed' }, [
        el('label', { for: numberId, text: unit ? `Or type it (${unit})` : 'Or type it' }),
        el('div', { class: 'number-with-unit' }, [number, unit ? el('span', { class: 'unit', 'aria-hidden': 'true', text: unit }) : null]),
      ]),
    ]),
  ]);
}

// Screen readers announce the value with its unit, or that none is chosen yet.
function syncSliderLabel(slider, unit, decimals, touched) {
  const text = touched ? withUnit(formatDecimal(Number(slider.value), decimals), unit) : 'not answered yet';
  slider.setAttribute('aria-valuetext', text);
}

// The typed value when it is a number in the range, else null (unanswered).
export function readNumericAnswer(form, question, index) {
  const input = form.querySelector(`input[name="answer-${index}"]`);
  const text = input?.value.trim() ?? '';
  if (text === '') return null;
  const value = Number(text);
  const [low, high] = question.range;
  return Number.isFinite(value) && value >= low && value <= high ? value : null;
}
