// The product version, shown by `deniable --version` and GET /api/health.
#include "server/version.h"

namespace deniable::server {
const char* const kVersion = "0.1.0";
}
