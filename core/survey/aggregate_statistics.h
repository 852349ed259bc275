// Strict reading of a kind's sufficient statistics
// (KindAggregate::StatisticsFromJson): the checks every kind needs, so that
// each kind's reader states only its own invariants. A blob is read from a
// store the server writes itself, but it may be truncated, corrupted or
// written by another version: nothing in it is trusted until checked, and
// every error names the field ("statistics.counts[2]: must be a count
// between 0 and 57 (n), but is -1").
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"

namespace deniable {

// The largest count a blob may hold: 2^53, so that every count is also exact
// as a double (estimators read counts as doubles) and sums of two partial
// aggregates cannot overflow.
inline constexpr std::int64_t kMaxAggregateCount = std::int64_t{1} << 53;

// An object with exactly these fields, all required.
Status RequireFields(const nlohmann::json& object, std::initializer_list<const char*> fields, const std::string& where);
// An integer in [0, at_most]; `bound` names at_most in the message ("n").
Result<std::int64_t> ReadCount(const nlohmann::json& object, const char* field, std::int64_t at_most,
                               const std::string& bound, const std::string& where);
// An array of any length (its items are the caller's to read).
Result<const nlohmann::json*> ReadList(const nlohmann::json& object, const char* field, const std::string& where);
// An array of `length` integers, each in [0, at_most].
Result<std::vector<std::int64_t>> ReadCounts(const nlohmann::json& object, const char* field, std::size_t length,
                                             std::int64_t at_most, const std::string& bound, const std::string& where);
// A finite double.
Result<double> ReadFinite(const nlohmann::json& object, const char* field, const std::string& where);
// An array of `length` finite doubles.
Result<std::vector<double>> ReadFinites(const nlohmann::json& object, const char* field, std::size_t length,
                                        const std::string& where);
// Refuses counts whose sum is not `expected` (what they partition: n).
Status CheckTotal(const std::vector<std::int64_t>& counts, std::int64_t expected, const std::string& expected_name,
                  const std::string& where);

// {"n": n, "<field>": [...]}: the statistics of kinds kept in parts (a
// histogram's levels, a block's groups, a model's rounds), whose items the
// kind reads.
struct CountedList {
  std::int64_t n = 0;
  const nlohmann::json* items = nullptr;
};
Result<CountedList> ReadCountedList(const nlohmann::json& statistics, const char* field);

// {"n": n, "counts": [...]}: respondents counted exactly, each in one of
// `length` cells (answers asked in confidence or openly), so the counts sum to n.
nlohmann::json PartitionCountsToJson(std::int64_t n, const std::vector<std::int64_t>& counts);
// Reads them into n and counts (`counts` has the question's length); on error leaves both unchanged.
Status ReadPartitionCounts(const nlohmann::json& statistics, std::int64_t& n, std::vector<std::int64_t>& counts);

}  // namespace deniable
