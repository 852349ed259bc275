// The single seam through which every mechanism draws randomness.
//
// Production code uses OsRandom (getentropy: the kernel's CSPRNG natively,
// crypto.getRandomValues in the browser). Tests and simulations inject
// SeededRandom, which is reproducible and therefore NOT private.
// The derived draws below are written so that the same 64-bit stream gives the
// same report natively and in WebAssembly (integer arithmetic, exact doubles).
#pragma once

#include <cstdint>

namespace deniable {

class RandomSource {
 public:
  virtual ~RandomSource() = default;
  virtual std::uint64_t NextU64() = 0;
};

// Uniform double in [0, 1) with 53 random bits (every value is exact).
double UniformUnit(RandomSource& random);

// Uniform integer in [0, bound), bound >= 1, unbiased (rejection sampling).
std::uint64_t UniformBelow(RandomSource& random, std::uint64_t bound);

// True with probability p (p clamped to [0, 1]).
bool Bernoulli(RandomSource& random, double p);

}  // namespace deniable
