#include "core/survey/aggregate_statistics.h"

#include <cmath>

#include "core/common/json_fields.h"

namespace deniable {
namespace {

Result<const nlohmann::json*> ReadArray(const nlohmann::json& object, const char* field, std::size_t length,
                                        const std::string& where) {
  DENIABLE_ASSIGN_OR_RETURN(const nlohmann::json* list, ReadList(object, field, where));
  const nlohmann::json& array = *list;
  const std::string path = JoinPath(where, field);
  if (array.size() != length) {
    return MakeError(path + ": must have " + std::to_string(length) + " entries, but has " +
                     std::to_string(array.size()));
  }
  return &array;
}

// `value` as a count in [0, at_most]: integers only (a blob never writes a
// count as 3.0), and an unsigned beyond int64 is refused before conversion.
Result<std::int64_t> AsCount(const nlohmann::json& value, std::int64_t at_most, const std::string& bound,
                             const std::string& path) {
  bool in_range = false;
  if (value.is_number_unsigned()) {
    in_range = value.get<std::uint64_t>() <= static_cast<std::uint64_t>(at_most);
  } else if (value.is_number_integer()) {
    in_range = value.get<std::int64_t>() >= 0 && value.get<std::int64_t>() <= at_most;
  }
  if (!in_range) {
    return MakeError(path + ": must be a count between 0 and " + std::to_string(at_most) +
                     (bound.empty() ? "" : " (" + bound + ")") + ", but is " + value.dump());
  }
  return value.get<std::int64_t>();
}

Result<double> AsFinite(const nlohmann::json& value, const std::string& path) {
  if (!value.is_number() || !std::isfinite(value.get<double>())) {
    return MakeError(path + ": must be a finite number, but is " + value.dump());
  }
  return value.get<double>();
}

}  // namespace

Result<const nlohmann::json*> ReadList(const nlohmann::json& object, const char* field, const std::string& where) {
  const std::string path = JoinPath(where, field);
  if (!object.contains(field)) return MakeError(path + ": required field is missing");
  const nlohmann::json& array = object.at(field);
  if (!array.is_array()) return MakeError(path + ": must be an array, but is " + std::string(array.type_name()));
  return &array;
}

Status RequireFields(const nlohmann::json& object, std::initializer_list<const char*> fields,
                     const std::string& where) {
  DENIABLE_TRY(RequireObject(object, where));
  DENIABLE_TRY(RejectUnknownFields(object, fields, where));
  for (const char* field : fields) {
    if (!object.contains(field)) return MakeError(JoinPath(where, field) + ": required field is missing");
  }
  return OkStatus();
}

Result<std::int64_t> ReadCount(const nlohmann::json& object, const char* field, std::int64_t at_most,
                               const std::string& bound, const std::string& where) {
  const std::string path = JoinPath(where, field);
  if (!object.contains(field)) return MakeError(path + ": required field is missing");
  return AsCount(object.at(field), at_most, bound, path);
}

Result<std::vector<std::int64_t>> ReadCounts(const nlohmann::json& object, const char* field, std::size_t length,
                                             std::int64_t at_most, const std::string& bound, const std::string& where) {
  const std::string path = JoinPath(where, field);
  DENIABLE_ASSIGN_OR_RETURN(const nlohmann::json* array, ReadArray(object, field, length, where));
  std::vector<std::int64_t> counts;
  counts.reserve(length);
  for (std::size_t i = 0; i < length; ++i) {
    DENIABLE_ASSIGN_OR_RETURN(const std::int64_t count,
                              AsCount((*array)[i], at_most, bound, path + "[" + std::to_string(i) + "]"));
    counts.push_back(count);
  }
  return counts;
}

Result<double> ReadFinite(const nlohmann::json& object, const char* field, const std::string& where) {
  const std::string path = JoinPath(where, field);
  if (!object.contains(field)) return MakeError(path + ": required field is missing");
  return AsFinite(object.at(field), path);
}

Result<std::vector<double>> ReadFinites(const nlohmann::json& object, const char* field, std::size_t length,
                                        const std::string& where) {
  const std::string path = JoinPath(where, field);
  DENIABLE_ASSIGN_OR_RETURN(const nlohmann::json* array, ReadArray(object, field, length, where));
  std::vector<double> values;
  values.reserve(length);
  for (std::size_t i = 0; i < length; ++i) {
    DENIABLE_ASSIGN_OR_RETURN(const double value, AsFinite((*array)[i], path + "[" + std::to_string(i) + "]"));
    values.push_back(value);
  }
  return values;
}

Status CheckTotal(const std::vector<std::int64_t>& counts, std::int64_t expected, const std::string& expected_name,
                  const std::string& where) {
  std::int64_t total = 0;
  for (std::int64_t count : counts) {
    total += count;  // each count and the total so far at most 2^53: no overflow
    if (total > kMaxAggregateCount) {
      return MakeError(where + ": the total is beyond " + std::to_string(kMaxAggregateCount));
    }
  }
  if (total != expected) {
    return MakeError(where + ": must sum to " + expected_name + " (" + std::to_string(expected) + "), but sum to " +
                     std::to_string(total));
  }
  return OkStatus();
}

nlohmann::json PartitionCountsToJson(std::int64_t n, const std::vector<std::int64_t>& counts) {
  return {{"n", n}, {"counts", counts}};
}

Result<CountedList> ReadCountedList(const nlohmann::json& statistics, const char* field) {
  const std::string where = "statistics";
  DENIABLE_TRY(RequireFields(statistics, {"n", field}, where));
  CountedList read;
  DENIABLE_ASSIGN_OR_RETURN(read.n, ReadCount(statistics, "n", kMaxAggregateCount, "", where));
  DENIABLE_ASSIGN_OR_RETURN(read.items, ReadList(statistics, field, where));
  return read;
}

Status ReadPartitionCounts(const nlohmann::json& statistics, std::int64_t& n, std::vector<std::int64_t>& counts) {
  const std::string where = "statistics";
  DENIABLE_TRY(RequireFields(statistics, {"n", "counts"}, where));
  DENIABLE_ASSIGN_OR_RETURN(const std::int64_t read_n, ReadCount(statistics, "n", kMaxAggregateCount, "", where));
  DENIABLE_ASSIGN_OR_RETURN(auto read_counts, ReadCounts(statistics, "counts", counts.size(), read_n, "n", where));
  DENIABLE_TRY(CheckTotal(read_counts, read_n, "n", where + ".counts"));
  n = read_n;
  counts = std::move(read_counts);
  return OkStatus();
}

}  // namespace deniable
