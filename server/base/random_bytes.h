// Random byte strings drawn from a RandomSource (OsRandom in production).
#pragma once

#include <cstddef>
#include <string>

#include "core/common/random_source.h"

namespace deniable::server {

std::string RandomBytes(RandomSource& random, std::size_t count);

}  // namespace deniable::server
