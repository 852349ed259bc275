// SeededRandom: xoshiro256** seeded through SplitMix64.
// NOT PRIVATE. Use only in tests, test vectors and `deniable simulate`, where
// reproducibility is the point. The algorithm is fixed forever: committed test
// vectors depend on its exact output, natively and in WebAssembly.
#pragma once

#include <array>
#include <cstdint>

#include "core/common/random_source.h"

namespace deniable {

class SeededRandom final : public RandomSource {
 public:
  explicit SeededRandom(std::uint64_t seed);
  std::uint64_t NextU64() override;

 private:
  std::array<std::uint64_t, 4> state_;
};

}  // namespace deniable
