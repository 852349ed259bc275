import { el } from '../shared/dom.js';
import { scrollBox } from '../shared/scroll-box.js';
import { formatEpsilon, formatInteger, formatSignificant } from '../shared/format.js';

// The creation page's side of a question answered in confidence (central/trust.js):
// its live budget line and the release advisor below it.
//
// The release advisor for a question answered in confidence
// (core.designAdvice(definition, id, n), kind "central_release";
// core/central/release_advisor.h): for every reader of the releases
// (every bin's count, and each data consumer's histogram), how far each
// release method is from the best one on the worst of the simulated shapes of
// answers (1 = always the best), with the recommendation per reader.

const METHOD_NAMES = {
  sreb_gca: 'SReB_GCA',
  dp_base: 'DP_BASE',
  'dp_base+consistent': 'DP_BASE, consistent',
  ahp: 'AHP',
  'ahp+consistent': 'AHP, consistent',
};
const methodName = (method) => METHOD_NAMES[method] ?? method;
const readerName = (consumer) => (consumer.name === 'bins' ? 'Every bin' : consumer.name);

export function renderCentralAdvice(advice, testidSuffix) {
  const captionId = `central-advice-caption-${testidSuffix}`;
  return el('div', { class: 'advice', testid: `central-advice-${testidSuffix}` }, [
    el('ul', { class: 'advice-recommendation' }, advice.consumers.map((consumer) => el('li', {}, [
      `${readerName(consumer)}: `,
      el('strong', { testid: 'central-advice-recommended', dataset: { method: consumer.recommended }, text: methodName(consumer.recommended) }),
      el('span', { class: 'hint', text: ` — ${consumer.reason}.` }),
    ]))),
    el('p', { class: 'hint', id: captionId, text: `Each release method's error relative to the best method, on the worst of the simulated shapes of answers (skewed, sparse, smooth), with ${formatInteger(advice.n)} respondents at ${formatEpsilon(advice.budget)} (1 = always the best; smaller is better). simulate with your own data measures them on it:` }),
    scrollBox(el('table', { class: 'advice-table', 'aria-describedby': captionId }, [
      el('thead', {}, [el('tr', {}, [
        el('th', { scope: 'col', text: 'Reader' }),
        advice.methods.map((method) => el('th', { scope: 'col', text: methodName(method) })),
      ])]),
      el('tbody', {}, advice.consumers.map((consumer) => el('tr', {}, [
        el('th', { scope: 'row', text: readerName(consumer) }),
        advice.methods.map((method) => el('td', {
          class: method === consumer.recommended ? 'number recommended' : 'number',
          text: `${formatSignificant(consumer.worst_ratio[method], 2)}×`,
        })),
      ]))),
    ])),
  ]);
}

// The live line of a question answered in confidence: its budget, read by
// the core (whose message names a wrong field), and no advisor.
export function confidentialFeedback(core, checked, respondents, index) {
  if (!checked.ok) return { epsilon: undefined, privacy: checked.message, error: true };
  const question = checked.definition.questions[0];
  return {
    epsilon: checked.epsilon,
    privacy: `${formatEpsilon(checked.epsilon)} for everything published about it (answered in confidence: the organisation sees each answer, and releases with added noise spend this budget)`,
    // Which release method serves which reader (the kind's design advice).
    adviceKey: JSON.stringify([question, respondents, index]),
    advice: () => {
      try {
        return renderCentralAdvice(core.designAdvice(checked.definition, question.id, respondents), index);
      } catch (error) {
        return el('p', { class: 'hint', testid: `advice-error-${index}`, text: `Advisor: ${error.message}` });
      }
    },
  };
}
