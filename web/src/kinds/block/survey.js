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
import { loadClientCore } from '../../core-client.js';
import { el, setText } from '../../shared/dom.js';
import { formatNumber, formatPercentSignificant, formatSignificant } from '../../shared/format.js';
import { blockMechanismLabel, SURVEY_FORMAT } from './shared.js';
import { t } from './survey-texts.js';

// Probabilities in words, in the page's locale: "50%", "18%", "4.7%"; and as numbers: "0.1824".
const percent = (value) => formatPercentSignificant(value, 2);
const probability = (value) => formatSignificant(value, 4);

// The three settings, in the order shown; "usual" is the default. Their
// labels are in the page's language (survey-texts.js, under the same keys).
export const SENSITIVITIES = ['more_private', 'usual', 'less_private'];
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
      text: t('intro'),
    }),
    attributes.map((attribute) => attribute.element),
    total,
    el('p', {
      class: 'hint block-learns', testid: `block-learns-${qid}`,
      text: t('learns'),
    }),
    el('details', { class: 'report-details block-details', testid: `block-details-${qid}` }, [
      el('summary', { text: t('technicalDetails') }),
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
      setText(total, t('notComputed', error.message));
      return;
    }
    privacy.attributes.forEach((entry, attributeIndex) => attributes[attributeIndex].show(entry, summary));
    setText(total, totalText(privacy, question));
    showDetails(detailsList, question, summary, privacy);
  };
  fieldset.addEventListener('change', update);
  // The questions are drawn before the core has arrived: the numbers follow
  // it (the same instance the page loads; at once when it is already there).
  setText(total, t('computing'));
  loadClientCore().then((loaded) => {
    core = loaded;
    update();
  }, (error) => setText(total, t('notComputed', error.message)));
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
      choice(NOT_ANSWERED, t('preferNot'), `not-answered-${key}`, ' choice-not-answered'),
    ]),
    el('fieldset', { class: 'block-sensitivity', testid: `sensitivity-${key}` }, [
      el('legend', { text: t('sensitivityLegend') }),
      el('div', { class: 'sensitivity-choices' }, SENSITIVITIES.map((value) => {
        const id = `${idPrefix}-s-${value}`;
        return el('label', { class: 'choice choice-small', for: id }, [
          el('input', {
            type: 'radio', id, name: sensitivityName(index, attributeIndex), value,
            checked: value === DEFAULT_SENSITIVITY, testid: `sensitivity-${key}-${value}`,
          }),
          el('span', { text: t(value) }),
        ]);
      })),
    ]),
    line,
  ]);
  return {
    element,
    // `entry`: this attribute in core.privacyOfChoices: {id, answered, epsilon, q};
    // `summary`: the core's page summary (p: the true option's chance).
    // In plain words: the chances; the ε is in the technical details.
    show(entry, summary) {
      element.classList.toggle('block-attribute-unanswered', !entry.answered);
      line.dataset.epsilon = entry.answered ? String(entry.epsilon) : '';
      setText(line, entry.answered
        ? t('attributeAnswered', percent(summary?.p ?? 0.5), percent(entry.q))
        : t('attributeUnanswered'));
    },
  };
}

// The block's total in plain words: m answered of the parts, only those sent
// (the budget, m × e, is in the technical details).
function totalText(privacy, question) {
  const parts = question.attributes.length;
  return privacy.answered === 0 ? t('noneAnswered', parts) : t('answered', privacy.answered, parts);
}

// The mechanism's terms, for readers who want them, with these choices' numbers.
function showDetails(list, question, summary, privacy) {
  const { epsilon_per_attribute: e, share_range: [low, high], sensitivities: weights, p } = summary;
  const settings = SENSITIVITIES.map((value) => `${t(value).toLocaleLowerCase()} ${formatNumber(weights[value])}`).join(', ');
  const items = [
    privacy.answered > 0
      ? t('detailsTotal', formatNumber(privacy.epsilon_total), formatNumber(e), privacy.answered, question.attributes.length)
      : null,
    t('detailsMechanism', blockMechanismLabel(), formatNumber(p)),
    t('detailsBudget', formatNumber(e), settings, formatNumber(low), formatNumber(high)),
    ...privacy.attributes.map((entry, attributeIndex) => {
      const text = question.attributes[attributeIndex].text;
      return entry.answered
        ? t('detailsAttribute', text, probability(entry.epsilon), probability(entry.q))
        : t('detailsAttributeUnanswered', text);
    }),
  ].filter(Boolean);
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

// Added to "Please answer every question" when such a question is unanswered
// (a function: the page's language is chosen after this module is loaded).
export function unansweredHint() {
  return t('unansweredHint');
}

// A block always has an ε; the survey page asks every kind for this, so it is here for completeness.
export function noEpsilonExplanation() {
  return t('noEpsilon');
}

// The answer in words, for "Check your answers": each answered part's option
// ("Your age group: 35-49; Diagnosis: Yes (more private)"), its setting when
// not the usual one. `answer` is readAnswer's {answers, sensitivity}.
export function answerInWords(question, answer) {
  return question.attributes.flatMap((attribute) => {
    const option = answer?.answers?.[attribute.id];
    if (option === undefined) return [];
    const label = attribute.options[option];
    if (label === undefined) throw new Error(`question ${question.id}: option index ${option} is out of range`);
    const setting = answer.sensitivity?.[attribute.id] ?? DEFAULT_SENSITIVITY;
    return [setting === DEFAULT_SENSITIVITY || !SENSITIVITIES.includes(setting)
      ? t('answerPart', attribute.text, label)
      : t('answerPartSetting', attribute.text, label, t(setting).toLocaleLowerCase())];
  }).join(t('separator'));
}

// A perturbed response in human terms: {label, values, explanation, note,
// details}. `response` is the wire form {attributes: [ids answered, in the
// block's order], bits: [[0/1 per option], ...]}; the shares are not in it.
export function describeResponse(question, response, summary) {
  const byId = new Map(question.attributes.map((attribute) => [attribute.id, attribute]));
  const sent = response.attributes.map((id, position) => {
    const attribute = byId.get(id);
    if (!attribute) throw new Error(t('unknownAttribute', question.id, id));
    const bits = response.bits[position];
    if (!Array.isArray(bits) || bits.length !== attribute.options.length) {
      throw new Error(t('wrongBits', question.id, id, attribute.options.length, bits?.length ?? 0));
    }
    const ticked = bits.flatMap((bit, optionIndex) => (bit === 1 ? [attribute.options[optionIndex]] : []));
    return { attribute, bits, ticked };
  });
  const left = question.attributes.filter((attribute) => !response.attributes.includes(attribute.id));
  const p = summary?.p ?? 0.5;
  return {
    label: t('reportLabel'),
    values: sent.map(({ attribute, ticked }) => `${attribute.text} (${ticked.length === 0 ? t('noneTicked') : ticked.join(', ')})`),
    explanation: t('explanation', percent(p)),
    note: left.length > 0 ? t('leftOut', left.map((attribute) => attribute.text).join(t('separator')), left.length) : null,
    details: {
      summary: t('technicalDetails'),
      items: [
        t('detailsReport', blockMechanismLabel(), formatNumber(question.mechanism.epsilon_per_attribute)),
        ...sent.map(({ attribute, bits }) => t('detailsBits', attribute.text, attribute.id, bits.join(''), attribute.options.join(', '))),
      ],
    },
  };
}
