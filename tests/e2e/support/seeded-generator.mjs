// A small deterministic generator for test data (SplitMix64), so the
// simulated respondents' true answers are the same on every run. Not for
// anything private: the product's randomness is the core's OsRandom.
const MASK64 = (1n << 64n) - 1n;

export function createSeededGenerator(seed) {
  let state = BigInt.asUintN(64, BigInt(seed));
  const nextU64 = () => {
    state = (state + 0x9e3779b97f4a7c15n) & MASK64;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
    return z ^ (z >> 31n);
  };
  // A uniform double in [0, 1) from the top 53 bits.
  const nextUnit = () => Number(nextU64() >> 11n) / 2 ** 53;
  return {
    nextUnit,
    // An index drawn with the given probabilities (they sum to 1).
    pick(probabilities) {
      const u = nextUnit();
      let cumulative = 0;
      for (let index = 0; index < probabilities.length; index += 1) {
        cumulative += probabilities[index];
        if (u < cumulative) return index;
      }
      return probabilities.length - 1;
    },
  };
}

// A normal draw by Box–Muller from the seeded generator, redrawn until it
// falls in [low, high] (a truncated normal).
export function truncatedNormal(generator, mean, sd, low, high) {
  for (;;) {
    const u1 = 1 - generator.nextUnit();
    const u2 = generator.nextUnit();
    const value = mean + sd * Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    if (value >= low && value <= high) return value;
  }
}
