// OsRandom: the production randomness source, backed by getentropy(3).
// Natively that is the kernel CSPRNG; under Emscripten, getentropy is
// crypto.getRandomValues (browser) or crypto.randomFillSync (Node).
// This is core's only contact with the platform, and it is a syscall for
// entropy, not I/O. Fails closed: if entropy cannot be read, the process
// aborts rather than produce a report with predictable noise.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/common/random_source.h"

namespace deniable {

class OsRandom final : public RandomSource {
 public:
  std::uint64_t NextU64() override;

 private:
  void Refill();
  // getentropy returns at most 256 bytes per call: buffer that much.
  std::array<std::uint64_t, 32> buffer_{};
  std::size_t next_ = buffer_.size();
};

}  // namespace deniable
