// The slider step for a numeric question: a power of ten giving between 100
// and 1000 positions over the range ([15, 45] -> 0.1, [0, 1] -> 0.001,
// [18, 90] -> 0.1), fine enough for any answer a person would type.
export function stepForRange(low, high) {
  const width = high - low;
  if (!(width > 0)) return 1;
  return 10 ** Math.floor(Math.log10(width / 100));
}

// The question's declared step when it has one (answers are low + k * step),
// else the slider's step for its range.
export function answerStep(question) {
  const [low, high] = question.range;
  return question.step ?? stepForRange(low, high);
}

// Whether x is low + a whole number of steps, within a millionth of a step
// or the doubles' own spacing where the numbers are large (as the core's
// AnswerStep::OnGrid: 0.3 / 0.1 is not exactly 3, and at 1e8 a double is
// stored to 1.5e-8).
export function onStepGrid(x, low, step) {
  const nearest = low + Math.round((x - low) / step) * step;
  return Math.abs(x - nearest) <= Math.max(1e-6 * step, 1e-12 * Math.max(Math.abs(x), Math.abs(low)));
}
