import { el, setText } from '../shared/dom.js';
import { isCentral } from '../central/trust.js';
import { isOpen } from '../shared/open.js';

// What the 95% intervals are for (core/survey/interval_target.h): the
// population the respondents were sampled from (the server's default:
// sampling and randomisation), or these respondents only (?interval=respondents).
// One control for the whole page, sent with the results and results.csv
// requests, and one plain line per question saying what its intervals cover.

const CHOICES = [
  ['population', 'the population sampled (sampling and randomisation)'],
  ['respondents', 'these respondents only (randomisation alone: narrower)'],
];

export function createIntervalControl(onChange) {
  const select = el('select', { id: 'interval-target', testid: 'interval-target', 'aria-describedby': 'interval-target-hint' },
    CHOICES.map(([value, text]) => el('option', { value, text })));
  let accepted = 'population';
  select.addEventListener('change', () => onChange());
  const message = el('p', { class: 'field-error', role: 'alert', testid: 'interval-target-error', hidden: true });
  const element = el('section', { class: 'card', testid: 'interval-controls', 'aria-label': 'What the intervals are for', hidden: true }, [
    el('div', { class: 'field' }, [
      el('label', { for: select.id, text: '95% intervals for' }),
      select,
      el('p', { class: 'hint', id: 'interval-target-hint', text: 'A survey estimates the population its respondents were drawn from: its intervals count the sampling as well as the randomisation. Choose “these respondents only” to describe just the people who answered. Applies to the page and the CSV export.' }),
    ]),
    message,
  ]);
  return {
    element,
    show(questions) {
      element.hidden = questions.length === 0;
    },
    accept() {
      accepted = select.value;
      message.hidden = true;
    },
    reject(reason) {
      setText(message, `The server refused this choice: ${reason}`);
      message.hidden = false;
      select.value = accepted;
    },
    queryString: () => (select.value === 'population' ? '' : `interval=${select.value}`),
  };
}

// The line a question's panel shows, from its results' "interval_for"
// (empty where the results do not say).
export function intervalLine(question) {
  const target = question.interval_for?.target;
  // Asked openly: nothing randomised, so only sampling varies.
  if (isOpen(question)) {
    if (target === 'respondents') return 'Asked openly: exact for these respondents (no interval needed).';
    return target === 'population' ? '95% intervals for the population sampled (sampling alone: these answers are not randomised).' : '';
  }
  if (target === 'respondents') return '95% intervals for these respondents only (randomisation alone; not for the population).';
  if (target !== 'population') return '';
  return isCentral(question)
    ? '95% intervals for the population sampled (sampling and the release’s noise).'
    : '95% intervals for the population sampled (sampling and randomisation).';
}

// Adds the line to a panel (after its heading) and returns its updater.
export function attachIntervalLine(panelElement, question) {
  const line = el('p', { class: 'hint interval-for', testid: `interval-for-${question.id}` });
  const heading = panelElement.querySelector('h2');
  if (heading) heading.after(line); else panelElement.prepend(line);
  return (result) => {
    const text = intervalLine(result);
    setText(line, text);
    line.hidden = !text;
  };
}
