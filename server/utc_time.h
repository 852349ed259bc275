// Times as the API writes them: ISO 8601 UTC to the second,
// "2026-11-25T02:15:50Z". Fixed width, so the text orders as the time does.
#pragma once

#include <string>

namespace deniable::server {

std::string NowUtc();

// Whether `text` is a valid time in that form (a real calendar date).
bool IsUtcTimestamp(const std::string& text);

}  // namespace deniable::server
