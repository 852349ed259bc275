// The product version, shown by `deniable --version` and GET /api/health.
// One source: CMake's project(VERSION), which wasm/build.sh also reads.
#include "server/base/version.h"

#ifndef DENIABLE_VERSION
#error "DENIABLE_VERSION must come from CMakeLists.txt"
#endif

namespace deniable::server {
const char* const kVersion = DENIABLE_VERSION;
}
