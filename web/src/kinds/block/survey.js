// The survey page's part of a block question: per attribute, native radio
// buttons for its options (and "Prefer not to say"), a native radio group for
// how private it should be, and the privacy that these choices give, live;
// reading the answers and the choices; and the randomised report in words.
//
// The live privacy comes from core.privacyOfChoices, which is given which
// attributes are answered and the sensitivity settings, never the answers
// (the split of the budget is made from the choices only: that is what the
// guarantee needs).
import { richText } from '../../shared/rich-text.js';
import { loadCore } from '../../core.js';
import { el, setText } from '../../shared/dom.js';
import { formatNumber } from '../../shared/format.js';
import { MECHANISM_LABEL, SURVEY_FORMAT } from './shared.js';

// Probabilities in words: "50%", "18%", "4.7%"; and as numbers: "0.1824".
const PERCENT = new Intl.NumberFormat('en', { style: 'percent', maximumSignificantDigits: 2 });
const PROBABILITY = new Intl.NumberFormat('en', { maximumSignificantDigits: 4 });

// The three settings, in the order shown; "usual" is the default.
export const SENSITIVITIES = [
  ['more_private', 'More private'],
  ['usual', 'Usual'],
  ['less_private', 'Less private'],
];
const DEFAULT_SENSITIVITY = 'usual';
const NOT_ANSWERED = 'none';

// Control names. The page moves focus to input[name="answer-<index>"] when a
// question is unanswered: the first attribute's options carry that name.
const answerName = (index, attributeIndex) => (attributeIndex === 0 ? `answer-${index}` : `answer-${index}-${attributeIndex}`);
const sensitivityName = (index, attributeIndex) => `sensitivity-${index}-${attributeIndex}`;

// One block as a fieldset: a fieldset per attribute (its options, "Prefer not
// to say", its sensitivity and its live privacy line), the block's total,
// what the organisers learn, and the mechanism's terms behind a disclosure.
export function renderFieldset(question, index) {
  const qid = question.id;
  const attributes = question.attributes.map((attribute, attributeIndex) =>
    renderAttribute(question, index, attribute, attributeIndex));
  const total = el('p', { class: 'block-total', testid: `block-total-${qid}`, 'aria-live': 'polite' });
  const detailsList = el('ul', { testid: `block-details-list-${qid}` });
  const fieldset = el('fieldset', { class: 'question question-block', testid: `question-${qid}`, dataset: { questionId: qid } }, [
    el('legend', {}, [el('span', { class: 'question-number', text: `${index + 1}.` }), ' ', richText(question.text)]),
    el('p', {
      class: 'hint block-intro',
      text: 'Answer any of these parts, at least one; “Prefer not to say” leaves a part out. ' +
        'For each part you can also choose how private it should be: a more private part is randomised more, the others less (your total stays the same).',
    }),
    attributes.map((attribute) => attribute.element),
    total,
    el('p', {
      class: 'hint block-learns', testid: `block-learns-${qid}`,
      text: 'What the organisers learn: which parts you answered (and so your total ε), never your answers or your settings. ' +
        'For a part you answered, the number of ticked boxes in your report partly hints at how private you asked it to be ' +
        '(a more private part ticks more boxes at random).',
    }),
    el('details', { class: 'report-details block-details', testid: `block-details-${qid}` }, [
      el('summary', { text: 'Technical details' }),
      detailsList,
    ]),
  ]);

  const definition = singleQuestionSurvey(question);
  let core = null;
  let summary = null;  // the core's page summary: p, share_range, sensitivities
  const update = () => {
    if (!core) return;
    let privacy;
    try {
      summary ??= core.parseSurvey(definition).questions[0];
      privacy = core.privacyOfChoices(definition, qid, readChoices(fieldset, question, index));
    } catch (error) {
      setText(total, `The privacy of these choices could not be computed: ${error.message}`);
      return;
    }
    privacy.attributes.forEach((entry, attributeIndex) => attributes[attributeIndex].show(entry));
    setText(total, totalText(privacy, question));
    showDetails(detailsList, question, summary, privacy);
  };
  fieldset.addEventListener('change', update);
  // The page loaded the core before drawing the questions: this is the same instance, at once.
  loadCore().then((loaded) => {
    core = loaded;
    update();
  }, (error) => setText(total, `The privacy of these choices could not be computed: ${error.message}`));
  return fieldset;
}

function renderAttribute(question, index, attribute, attributeIndex) {
  const qid = question.id;
  const key = `${qid}-${attribute.id}`;
  const idPrefix = `q${index}-a${attributeIndex}`;
  const lineId = `${idPrefix}-privacy`;
  const name = answerName(index, attributeIndex);
  const choice = (value, text, testid, extraClass = '') => {
    const id = `${idPrefix}-o${value}`;
    return el('label', { class: `choice${extraClass}`, for: id }, [
      el('input', { type: 'radio', id, name, value, testid }),
      el('span', { text }),
    ]);
  };
  const line = el('p', { class: 'block-attribute-privacy', id: lineId, testid: `attribute-privacy-${key}`, 'aria-live': 'polite' });
  const element = el('fieldset', { class: 'block-attribute', testid: `attribute-${key}`, 'aria-describedby': lineId }, [
    el('legend', { text: attribute.text }),
    el('div', { class: 'choices block-choices' }, [
      attribute.options.map((option, optionIndex) => choice(String(optionIndex), option, `option-${key}-${optionIndex}`)),
      choice(NOT_ANSWERED, 'Prefer not to say', `not-answered-${key}`, ' choice-not-answered'),
    ]),
    el('fieldset', { class: 'block-sensitivity', testid: `sensitivity-${key}` }, [
      el('legend', { text: 'How private should this part be?' }),
      el('div', { class: 'sensitivity-choices' }, SENSITIVITIES.map(([value, text]) => {
        const id = `${idPrefix}-s-${value}`;
        return el('label', { class: 'choice choice-small', for: id }, [
          el('input', {
            type: 'radio', id, name: sensitivityName(index, attributeIndex), value,
            checked: value === DEFAULT_SENSITIVITY, testid: `sensitivity-${key}-${value}`,
          }),
          el('span', { text }),
        ]);
      })),
    ]),
    line,
  ]);
  return {
    element,
    // `entry`: this attribute in core.privacyOfChoices: {id, answered, epsilon, q}.
    show(entry) {
      element.classList.toggle('block-attribute-unanswered', !entry.answered);
      line.dataset.epsilon = entry.answered ? String(entry.epsilon) : '';
      setText(line, entry.answered
        ? `ε = ${formatNumber(entry.epsilon)} for this part: your true option’s box is ticked half the time, every other option’s box ${PERCENT.format(entry.q)} of the time.`
        : 'Not answered: nothing about this part is sent.');
    },
  };
}

// The block's total in plain words: m answered, m × e.
function totalText(privacy, question) {
  const parts = question.attributes.length;
  if (privacy.answered === 0) return `You have answered none of the ${parts} parts yet.`;
  const e = formatNumber(question.mechanism.epsilon_per_attribute);
  const answered = privacy.answered === 1 ? '1 part' : `${privacy.answered} parts`;
  return `Your privacy budget for this question: ε = ${formatNumber(privacy.epsilon_total)} in total, ` +
    `${e} for each of the ${answered} you answered (of ${parts}), shared out by your settings.`;
}

// The mechanism's terms, for readers who want them, with these choices' numbers.
function showDetails(list, question, summary, privacy) {
  const { epsilon_per_attribute: e, share_range: [low, high], sensitivities: weights, p } = summary;
  const settings = SENSITIVITIES.map(([value, text]) => `${text.toLowerCase()} ${formatNumber(weights[value])}`).join(', ');
  const items = [
    `Mechanism: ${MECHANISM_LABEL}. Each answered part is sent as one box (bit) per option: the true option’s bit is 1 with p = ${formatNumber(p)}, every other option’s with q = 1/(e^ε + 1), ε that part’s share.`,
    `Your budget is m × ${formatNumber(e)} for m answered parts, split in proportion to your settings (${settings}) and kept between ${formatNumber(low)} and ${formatNumber(high)} per part. The split uses only which parts you answer and your settings, never your answers; the shares are not sent.`,
    ...privacy.attributes.map((entry, attributeIndex) => {
      const text = question.attributes[attributeIndex].text;
      return entry.answered
        ? `${text}: ε = ${PROBABILITY.format(entry.epsilon)}, q = ${PROBABILITY.format(entry.q)}.`
        : `${text}: not answered, not sent.`;
    }),
  ];
  list.replaceChildren(...items.map((item) => el('li', { text: item })));
}

// The choices the split is made from: which attributes are answered, and
// every attribute's sensitivity. Never the answers.
function readChoices(form, question, index) {
  const answered = [];
  const sensitivity = {};
  question.attributes.forEach((attribute, attributeIndex) => {
    const value = checkedValue(form, answerName(index, attributeIndex));
    if (value !== null && value !== NOT_ANSWERED) answered.push(attribute.id);
    sensitivity[attribute.id] = checkedValue(form, sensitivityName(index, attributeIndex)) ?? DEFAULT_SENSITIVITY;
  });
  return { answered, sensitivity };
}

function checkedValue(root, name) {
  return root.querySelector(`input[name="${name}"]:checked`)?.value ?? null;
}

// A survey of this one question, for the core.
function singleQuestionSurvey(question) {
  return { format: SURVEY_FORMAT, id: 'block-choices', version: 1, title: 'block', questions: [question] };
}

// {"answers": {attribute id: option index}, "sensitivity": {attribute id: setting}}
// for the answered attributes, or null when none is answered (the page then
// asks for one, or for "Skip this question" when the block is optional). The
// answers stay in memory only: they are handed to the core and never stored.
export function readAnswer(form, question, index) {
  const answers = {};
  const sensitivity = {};
  question.attributes.forEach((attribute, attributeIndex) => {
    const value = checkedValue(form, answerName(index, attributeIndex));
    if (value === null || value === NOT_ANSWERED) return;
    answers[attribute.id] = Number(value);
    sensitivity[attribute.id] = checkedValue(form, sensitivityName(index, attributeIndex)) ?? DEFAULT_SENSITIVITY;
  });
  return Object.keys(answers).length === 0 ? null : { answers, sensitivity };
}

// Added to "Please answer every question" when such a question is unanswered.
export const unansweredHint = 'A question made of parts needs at least one part answered (“Prefer not to say” leaves a part out).';

// A block always has an ε; the survey page asks every kind for this, so it is here for completeness.
export function noEpsilonExplanation() {
  return 'each part is sent as boxes ticked at random, more often for your own option; no ε bounds what that reveals.';
}

// A perturbed response in human terms: {label, values, explanation, note,
// details}. `response` is the wire form {attributes: [ids answered, in the
// block's order], bits: [[0/1 per option], ...]}; the shares are not in it.
export function describeResponse(question, response, summary) {
  const byId = new Map(question.attributes.map((attribute) => [attribute.id, attribute]));
  const sent = response.attributes.map((id, position) => {
    const attribute = byId.get(id);
    if (!attribute) throw new Error(`question ${question.id}: the report names no attribute "${id}" of this block`);
    const bits = response.bits[position];
    if (!Array.isArray(bits) || bits.length !== attribute.options.length) {
      throw new Error(`question ${question.id}: attribute "${id}" has ${attribute.options.length} options but its report has ${bits?.length ?? 0} bits`);
    }
    const ticked = bits.flatMap((bit, optionIndex) => (bit === 1 ? [attribute.options[optionIndex]] : []));
    return { attribute, bits, ticked };
  });
  const left = question.attributes.filter((attribute) => !response.attributes.includes(attribute.id));
  const p = summary?.p ?? 0.5;
  return {
    label: 'Boxes ticked in your report',
    values: sent.map(({ attribute, ticked }) => `${attribute.text} (${ticked.length === 0 ? 'none ticked' : ticked.join(', ')})`),
    explanation: `Each part you answered is sent as one box per option, each ticked at random: your true option’s box ${p === 0.5 ? 'half the time' : `${PERCENT.format(p)} of the time`}, ` +
      'every other option’s box less often (how much less follows the privacy you chose for that part). So a ticked box may not be yours, and yours may be unticked.',
    note: left.length > 0 ? `Not answered, so not sent: ${left.map((attribute) => attribute.text).join('; ')}. The organisers see only that ${left.length === 1 ? 'it was' : 'they were'} left out.` : null,
    details: {
      summary: 'Technical details',
      items: [
        `Mechanism: ${MECHANISM_LABEL}, ε = ${formatNumber(question.mechanism.epsilon_per_attribute)} per answered part on average; the report carries the answered parts’ ids and their bits, not their shares of the budget.`,
        ...sent.map(({ attribute, bits }) => `${attribute.text} (“${attribute.id}”): bits ${bits.join('')}, one per option in order (${attribute.options.join(', ')}).`),
      ],
    },
  };
}
