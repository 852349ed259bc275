// Times as the API writes them: RFC 3339 UTC to the second,
// "2026-11-25T02:15:50Z". Times it reads (a survey's closing time) are parsed
// strictly as RFC 3339 date-times, any offset, and compared as instants, never
// as text: " 2099-12-01T18:00:0Z" (loose), year 0000 and 2026-02-31 are refused.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace deniable::server {

// Seconds since 1970-01-01T00:00:00Z.
using UnixSeconds = std::int64_t;

UnixSeconds NowSeconds();
std::string NowUtc();

// "YYYY-MM-DDTHH:MM:SSZ" for a time (years 1970 to 9999).
std::string FormatUtc(UnixSeconds seconds);

// An RFC 3339 date-time (section 5.6: "T" or "t", optional fraction, "Z",
// "z" or a +hh:mm / -hh:mm offset) between years 1970 and 9999, as seconds
// (a fraction is dropped; a leap second 60 counts as 59); nullopt when the
// text is anything else, a date that does not exist included.
std::optional<UnixSeconds> ParseRfc3339(std::string_view text);

// Whether `text` is a valid RFC 3339 time (ParseRfc3339).
bool IsUtcTimestamp(const std::string& text);

}  // namespace deniable::server
