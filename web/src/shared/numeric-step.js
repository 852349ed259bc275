// The slider step for a numeric question: a power of ten giving between 100
// and 1000 positions over the range ([15, 45] -> 0.1, [0, 1] -> 0.001,
// [18, 90] -> 0.1), fine enough for any answer a person would type.
export function stepForRange(low, high) {
  const width = high - low;
  if (!(width > 0)) return 1;
  return 10 ** Math.floor(Math.log10(width / 100));
}
