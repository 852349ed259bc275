#include "core/common/random_source.h"

namespace deniable {

double UniformUnit(RandomSource& random) {
  constexpr double kTwoToMinus53 = 1.0 / 9007199254740992.0;
  return static_cast<double>(random.NextU64() >> 11) * kTwoToMinus53;
}

std::uint64_t UniformBelow(RandomSource& random, std::uint64_t bound) {
  // Reject the low (2^64 mod bound) values so every residue is equally likely.
  const std::uint64_t threshold = (0 - bound) % bound;
  for (;;) {
    const std::uint64_t draw = random.NextU64();
    if (draw >= threshold) return draw % bound;
  }
}

bool Bernoulli(RandomSource& random, double p) {
  if (p <= 0.0) return false;
  if (p >= 1.0) return true;
  return UniformUnit(random) < p;
}

}  // namespace deniable
