// What a histogram report's bits stand for (it only reads the wire form; the
// randomisation happens in the core). SUE and OUE send one bit per fine
// range. The tree sends {level, bits}: one bit per node of the level it
// picked, a node being `fanout` ^ (height - level) consecutive fine ranges;
// the tree's last nodes may lie wholly past the fine ranges (padding that
// completes the tree) and stand for no values.

// {bits, ranges: [[low, high] | null per bit], level: null | {level, height, fanout}}.
// `summary`: the core's page summary ({fine_edges, tree}).
export function reportedRanges(response, summary) {
  const edges = summary.fine_edges;
  if (Array.isArray(response)) {
    return { bits: response, ranges: response.map((_, index) => [edges[index], edges[index + 1]]), level: null };
  }
  const { fanout, height } = summary.tree;
  const cells = edges.length - 1;
  const span = fanout ** (height - response.level);
  const ranges = response.bits.map((_, node) => {
    const first = node * span;
    return first < cells ? [edges[first], edges[Math.min(first + span, cells)]] : null;
  });
  return { bits: response.bits, ranges, level: { level: response.level, height, fanout } };
}
