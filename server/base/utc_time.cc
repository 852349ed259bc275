#include "server/base/utc_time.h"

#include <ctime>

namespace deniable::server {
namespace {

constexpr int kFirstYear = 1970, kLastYear = 9999;

bool IsLeapYear(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int DaysInMonth(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : kDays[month - 1];
}

// Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil).
std::int64_t DaysFromCivil(int year, int month, int day) {
  year -= month <= 2 ? 1 : 0;
  const int era = year / 400;
  const int year_of_era = year - era * 400;
  const int day_of_year = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
  const int day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return static_cast<std::int64_t>(era) * 146097 + day_of_era - 719468;
}

// Reads exactly `width` digits at `at`, advancing it; -1 if any is not a digit.
int Digits(std::string_view text, std::size_t& at, std::size_t width) {
  if (at + width > text.size()) return -1;
  int value = 0;
  for (std::size_t i = 0; i < width; ++i) {
    const char c = text[at + i];
    if (c < '0' || c > '9') return -1;
    value = value * 10 + (c - '0');
  }
  at += width;
  return value;
}

bool Expect(std::string_view text, std::size_t& at, char wanted) {
  if (at >= text.size() || text[at] != wanted) return false;
  ++at;
  return true;
}

// The offset in seconds east of UTC ("Z" is 0); nullopt when malformed.
std::optional<int> ReadOffset(std::string_view text, std::size_t& at) {
  if (at >= text.size()) return std::nullopt;
  const char sign = text[at++];
  if (sign == 'Z' || sign == 'z') return 0;
  if (sign != '+' && sign != '-') return std::nullopt;
  const int hours = Digits(text, at, 2);
  if (hours < 0 || hours > 23 || !Expect(text, at, ':')) return std::nullopt;
  const int minutes = Digits(text, at, 2);
  if (minutes < 0 || minutes > 59) return std::nullopt;
  const int offset = hours * 3600 + minutes * 60;
  return sign == '+' ? offset : -offset;
}

}  // namespace

UnixSeconds NowSeconds() { return static_cast<UnixSeconds>(std::time(nullptr)); }

std::string NowUtc() { return FormatUtc(NowSeconds()); }

std::string FormatUtc(UnixSeconds seconds) {
  const std::time_t time = static_cast<std::time_t>(seconds);
  std::tm utc{};
  gmtime_r(&time, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::optional<UnixSeconds> ParseRfc3339(std::string_view text) {
  std::size_t at = 0;
  const int year = Digits(text, at, 4);
  if (year < kFirstYear || year > kLastYear || !Expect(text, at, '-')) return std::nullopt;
  const int month = Digits(text, at, 2);
  if (month < 1 || month > 12 || !Expect(text, at, '-')) return std::nullopt;
  const int day = Digits(text, at, 2);
  if (day < 1 || day > DaysInMonth(year, month)) return std::nullopt;
  if (at >= text.size() || (text[at] != 'T' && text[at] != 't')) return std::nullopt;
  ++at;
  const int hour = Digits(text, at, 2);
  if (hour < 0 || hour > 23 || !Expect(text, at, ':')) return std::nullopt;
  const int minute = Digits(text, at, 2);
  if (minute < 0 || minute > 59 || !Expect(text, at, ':')) return std::nullopt;
  const int second = Digits(text, at, 2);
  if (second < 0 || second > 60) return std::nullopt;
  if (at < text.size() && text[at] == '.') {
    const std::size_t first = ++at;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
    if (at == first) return std::nullopt;
  }
  const auto offset = ReadOffset(text, at);
  if (!offset || at != text.size()) return std::nullopt;
  const UnixSeconds local = DaysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + (second == 60 ? 59 : second);
  return local - *offset;
}

bool IsUtcTimestamp(const std::string& text) { return ParseRfc3339(text).has_value(); }

}  // namespace deniable::server
