// Puts a perturbed report into human terms, per question, so the respondent
// can read exactly what is about to be sent. This only reads the wire format
// (common.md "Report"); the randomisation itself happens in the core.

export function describeResponse(question, response) {
  const { name } = question.mechanism;
  if (name === 'grr') return describeGrr(question, response);
  if (name === 'oue' || name === 'sue') return describeUnary(question, response);
  if (name === 'negative') return describeNegative(question, response);
  throw new Error(`question ${question.id}: unknown mechanism "${name}"`);
}

function optionLabel(question, index) {
  const label = question.options[index];
  if (label === undefined) throw new Error(`question ${question.id}: option index ${index} is out of range`);
  return label;
}

function describeGrr(question, response) {
  return {
    label: 'Reported option',
    values: [optionLabel(question, response)],
    explanation: 'Your true option was kept with a set probability, otherwise replaced by another one at random.',
  };
}

function describeUnary(question, bits) {
  const values = bits.flatMap((bit, index) => (bit === 1 ? [optionLabel(question, index)] : []));
  return {
    label: 'Options reported as 1',
    values,
    explanation: 'Each option is sent as a yes/no bit, and every bit was randomly flipped with a set probability.',
  };
}

function describeNegative(question, indices) {
  return {
    label: 'Options reported as NOT yours',
    values: indices.map((index) => optionLabel(question, index)),
    explanation: 'These were picked at random among the options other than your answer.',
  };
}

export function formatValues(values) {
  return values.length === 0 ? 'none' : values.join(', ');
}
