// RFC 9380 section 5.3.1 expand_message_xmd with SHA-512: stretches a message
// into `length` uniform bytes under a domain separation tag (DST). RFC 9497
// builds HashToGroup and HashToScalar on it (64 bytes each).
#pragma once

#include <cstddef>
#include <string_view>

#include "core/common/result.h"
#include "core/oprf/voprf.h"

namespace deniable::oprf {

// SHA-512 hashes 64 bytes per block of 128: the RFC's b_in_bytes, s_in_bytes.
inline constexpr std::size_t kXmdHashBytes = 64;
inline constexpr std::size_t kXmdBlockBytes = 128;

// Refused (as the RFC aborts) when length exceeds 255 hash outputs or 65535
// bytes, or the DST is longer than 255 bytes.
Result<Bytes> ExpandMessageXmdSha512(const Bytes& message, std::string_view dst, std::size_t length);

}  // namespace deniable::oprf
