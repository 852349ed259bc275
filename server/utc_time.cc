#include "server/utc_time.h"

#include <ctime>

namespace deniable::server {

std::string NowUtc() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

bool IsUtcTimestamp(const std::string& text) {
  std::tm parsed{};
  if (text.size() != 20) return false;
  const char* end = strptime(text.c_str(), "%Y-%m-%dT%H:%M:%SZ", &parsed);
  if (end == nullptr || *end != '\0') return false;
  // strptime accepts 2026-02-31: the date must survive a round trip through timegm.
  std::tm normalised = parsed;
  const std::time_t seconds = timegm(&normalised);
  std::tm back{};
  gmtime_r(&seconds, &back);
  return back.tm_year == parsed.tm_year && back.tm_mon == parsed.tm_mon && back.tm_mday == parsed.tm_mday &&
         back.tm_hour == parsed.tm_hour && back.tm_min == parsed.tm_min && back.tm_sec == parsed.tm_sec;
}

}  // namespace deniable::server
