// The survey page's part of a rating grid: one group of native radio buttons
// per item (a fieldset with the item as its legend), reading one level per
// item, and its randomised report in words. On a wide screen each item's
// levels sit in a row; on a phone (styles.css, .grid-scale) they stack, so
// every level stays large enough to tap. Keyboard: Tab moves from item to
// item, the arrow keys change the level within one.
import { el } from '../../shared/dom.js';
import { formatChance, formatEpsilon, formatNumber } from '../../shared/format.js';
import { richText } from '../../shared/rich-text.js';
import { t } from './survey-texts.js';

// The radio group of item `row`: the first is "answer-<index>" (the page moves
// focus to a question's first answer control by that name).
function groupName(index, row) {
  return row === 0 ? `answer-${index}` : `answer-${index}-row${row}`;
}

export function renderFieldset(question, index) {
  const hintId = `q${index}-scale-hint`;
  const rows = question.items.map((item, row) => {
    const legendId = `q${index}-item${row}`;
    const levels = question.scale.map((level, levelIndex) => {
      const id = `q${index}-i${row}-l${levelIndex}`;
      return el('label', { class: 'choice grid-level', for: id }, [
        el('input', {
          type: 'radio', id, name: groupName(index, row), value: String(levelIndex),
          testid: `level-${question.id}-${row}-${levelIndex}`,
        }),
        el('span', { text: level }),
      ]);
    });
    const scale = el('div', { class: 'grid-scale' }, levels);
    scale.style.setProperty('--levels', String(question.scale.length));  // CSSOM: allowed by the CSP
    return el('fieldset', { class: 'grid-row', testid: `grid-row-${question.id}-${row}` }, [
      el('legend', { id: legendId, class: 'grid-item', text: item }),
      scale,
    ]);
  });
  return el('fieldset', { class: 'question question-grid', testid: `question-${question.id}`, dataset: { questionId: question.id }, 'aria-describedby': hintId }, [
    el('legend', {}, [el('span', { class: 'question-number', text: `${index + 1}.` }), ' ', richText(question.text)]),
    el('p', { class: 'hint', id: hintId, text: t('scaleHint', question.scale[0], question.scale[question.scale.length - 1]) }),
    el('div', { class: 'grid-rows', testid: `grid-${question.id}` }, rows),
  ]);
}

// One level index per item, or null while a row is unanswered. The answer
// stays in memory only: it is handed to the core and never stored.
export function readAnswer(form, question, index) {
  const levels = question.items.map((_, row) => {
    const checked = form.querySelector(`input[name="${groupName(index, row)}"]:checked`);
    return checked ? Number(checked.value) : null;
  });
  return levels.includes(null) ? null : levels;
}

export const unansweredHint = t('unanswered');

export function noEpsilonExplanation() {
  return '';
}

// The chance of sending the true level: for GRR p and q; for the ordinal
// mechanism the smallest chance of the true level (at the scale's ends).
export function privacyInWords(question, summary) {
  const channel = summary?.channel;
  if (!Array.isArray(channel)) return null;
  const items = formatNumber(question.items.length);
  if (question.mechanism.name === 'duchi') {
    // P(high end | highest level) against P(high end | lowest level).
    return t('duchiWords', items, formatChance(channel[channel.length - 1][1]), formatChance(channel[0][1]));
  }
  const diagonal = channel.map((row, level) => row[level]);
  if (question.mechanism.name === 'grr') {
    return t('grrWords', items, formatChance(diagonal[0]), formatChance(channel[0][1]));
  }
  return t('ordinalWords', items, formatChance(Math.min(...diagonal)));
}

export function describeResponse(question, response, summary) {
  const duchi = question.mechanism.name === 'duchi';
  const values = response.map((level, row) => `${question.items[row]}: ${duchi ? t(level === 1 ? 'highEnd' : 'lowEnd') : question.scale[level] ?? level}`);
  const chances = privacyInWords(question, summary);
  const explanation = chances
    ? `${t('sentExplanation')} ${chances.charAt(0).toUpperCase()}${chances.slice(1)}`
    : t('sentExplanation');
  const perItem = summary?.epsilon_per_item;
  return {
    label: t(duchi ? 'sentEndsLabel' : 'sentLabel'),
    values,
    explanation,
    details: {
      summary: t('technicalDetails'),
      items: [t('mechanismItem', question.mechanism.name, formatEpsilon(question.mechanism.epsilon ?? null),
        typeof perItem === 'number' ? formatNumber(perItem) : '')],
    },
  };
}

// The answer in words (a grid is never answered in confidence; kept for the review step).
export function answerInWords(question, levels) {
  return levels.map((level, row) => `${question.items[row]}: ${question.scale[level]}`).join('; ');
}
