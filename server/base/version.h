// The product version, shown by `deniable --version` and GET /api/health.
#pragma once

namespace deniable::server {

extern const char* const kVersion;

}  // namespace deniable::server
