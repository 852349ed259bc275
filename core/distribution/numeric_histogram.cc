#include "core/distribution/numeric_histogram.h"

#include <cmath>
#include <limits>

#include "core/common/json_fields.h"
#include "core/common/validation.h"

namespace deniable {
namespace {

constexpr const char* kHistogramFormat = "deniable.numeric_histogram/v1";

std::string FormatRange(NumericRange range) {
  return "[" + FormatNumber(range.low) + ", " + FormatNumber(range.high) + "]";
}

Result<std::vector<std::int64_t>> ReadCounts(const nlohmann::json& object, long long cells, const std::string& where) {
  const std::string path = JoinPath(where, "counts");
  if (!object.contains("counts")) return MakeError(path + ": required field is missing");
  const auto& array = object.at("counts");
  if (!array.is_array()) return MakeError(path + ": must be an array, but is " + std::string(array.type_name()));
  if (static_cast<long long>(array.size()) != cells) {
    return MakeError(path + ": must have " + std::to_string(cells) + " entries (one per cell), but has " +
                     std::to_string(array.size()));
  }
  std::vector<std::int64_t> counts;
  counts.reserve(array.size());
  for (std::size_t j = 0; j < array.size(); ++j) {
    const auto& item = array[j];
    if (!item.is_number_integer() || item.get<long long>() < 0) {
      return MakeError(path + "[" + std::to_string(j) + "]: must be a non-negative integer, but is " + item.dump());
    }
    counts.push_back(item.get<std::int64_t>());
  }
  return counts;
}

}  // namespace

Status CheckNumericRange(NumericRange range, const std::string& what) {
  if (!std::isfinite(range.low) || !std::isfinite(range.high) || !(range.low < range.high)) {
    return MakeError(what + " must be finite with low < high, but is " + FormatRange(range));
  }
  return OkStatus();
}

Result<NumericHistogram> NumericHistogram::Create(NumericRange range, int cells) {
  DENIABLE_TRY(CheckNumericRange(range, "histogram range"));
  DENIABLE_TRY(ValidateIntInRange(cells, 1, kMaxHistogramCells, "histogram cells"));
  return NumericHistogram(range, cells);
}

Result<NumericHistogram> NumericHistogram::ForMechanism(const NumericMechanism& mechanism, int cells) {
  return Create(mechanism.output_range(), cells);
}

double NumericHistogram::CellEdge(int j) const {
  if (j >= cells()) return range_.high;
  return range_.low + range_.width() * static_cast<double>(j) / cells();
}

int NumericHistogram::CellOf(double value) const {
  if (!(value > range_.low)) return 0;
  if (value >= range_.high) return cells() - 1;
  const int j = static_cast<int>((value - range_.low) / range_.width() * cells());
  return j < cells() ? j : cells() - 1;
}

std::vector<double> NumericHistogram::counts_as_doubles() const {
  return std::vector<double>(counts_.begin(), counts_.end());
}

Status NumericHistogram::Add(const std::vector<double>& values) {
  if (values.empty()) return MakeError("a numeric report must carry at least one value");
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!std::isfinite(values[i])) return MakeError("value " + std::to_string(i) + " must be a finite number");
  }
  for (double value : values) {
    ++counts_[static_cast<std::size_t>(CellOf(value))];
    sum_ += value;
    sum_of_squares_ += value * value;
  }
  ++reports_;
  values_ += static_cast<std::int64_t>(values.size());
  return OkStatus();
}

Status NumericHistogram::Merge(const NumericHistogram& other) {
  if (other.range_.low != range_.low || other.range_.high != range_.high || other.cells() != cells()) {
    return MakeError("cannot merge numeric histograms of different shapes: " + std::to_string(cells()) +
                     " cells over " + FormatRange(range_) + " and " + std::to_string(other.cells()) + " cells over " +
                     FormatRange(other.range_));
  }
  for (std::size_t j = 0; j < counts_.size(); ++j) counts_[j] += other.counts_[j];
  reports_ += other.reports_;
  values_ += other.values_;
  sum_ += other.sum_;
  sum_of_squares_ += other.sum_of_squares_;
  return OkStatus();
}

nlohmann::json NumericHistogram::ToJson() const {
  return {{"format", kHistogramFormat}, {"low", range_.low}, {"high", range_.high}, {"cells", cells()},
          {"reports", reports_},        {"values", values_}, {"sum", sum_},         {"sum_of_squares", sum_of_squares_},
          {"counts", counts_}};
}

Result<NumericHistogram> NumericHistogram::FromJson(const nlohmann::json& json) {
  const std::string where = "numeric histogram";
  DENIABLE_TRY(RequireObject(json, where));
  DENIABLE_TRY(RejectUnknownFields(
      json, {"format", "low", "high", "cells", "reports", "values", "sum", "sum_of_squares", "counts"}, where));
  DENIABLE_ASSIGN_OR_RETURN(const auto format, ReadString(json, "format", 64, true, where));
  if (format != kHistogramFormat) {
    return MakeError(JoinPath(where, "format") + ": must be \"" + kHistogramFormat + "\", but is \"" + format + "\"");
  }
  DENIABLE_ASSIGN_OR_RETURN(const auto low, ReadFiniteNumber(json, "low", where));
  DENIABLE_ASSIGN_OR_RETURN(const auto high, ReadFiniteNumber(json, "high", where));
  DENIABLE_ASSIGN_OR_RETURN(const auto cells, ReadInteger(json, "cells", 1, kMaxHistogramCells, where));
  constexpr long long kMaxCount = std::numeric_limits<std::int64_t>::max() / 2;
  DENIABLE_ASSIGN_OR_RETURN(const auto reports, ReadInteger(json, "reports", 0, kMaxCount, where));
  DENIABLE_ASSIGN_OR_RETURN(const auto values, ReadInteger(json, "values", 0, kMaxCount, where));
  DENIABLE_ASSIGN_OR_RETURN(const auto sum, ReadFiniteNumber(json, "sum", where));
  DENIABLE_ASSIGN_OR_RETURN(const auto sum_of_squares, ReadFiniteNumber(json, "sum_of_squares", where));
  DENIABLE_ASSIGN_OR_RETURN(auto counts, ReadCounts(json, cells, where));

  auto histogram = Create({low, high}, static_cast<int>(cells));
  if (!histogram) return MakeError(where + ": " + histogram.error());
  long long total = 0;
  for (std::int64_t count : counts) {
    if (count > kMaxCount - total) return MakeError(JoinPath(where, "counts") + ": total is too large");
    total += count;
  }
  if (total != values) {
    return MakeError(JoinPath(where, "counts") + ": must sum to values (" + std::to_string(values) + "), but sum to " +
                     std::to_string(total));
  }
  if (values < reports) {
    return MakeError(JoinPath(where, "values") + ": must be at least reports (" + std::to_string(reports) +
                     "), but is " + std::to_string(values));
  }
  if (sum_of_squares < 0.0) return MakeError(JoinPath(where, "sum_of_squares") + ": must not be negative");
  NumericHistogram& result = histogram.value();
  result.counts_ = std::move(counts);
  result.reports_ = reports;
  result.values_ = values;
  result.sum_ = sum;
  result.sum_of_squares_ = sum_of_squares;
  return std::move(histogram.value());
}

bool NumericHistogram::operator==(const NumericHistogram& other) const {
  return range_.low == other.range_.low && range_.high == other.range_.high && counts_ == other.counts_ &&
         reports_ == other.reports_ && values_ == other.values_ && sum_ == other.sum_ &&
         sum_of_squares_ == other.sum_of_squares_;
}

}  // namespace deniable
