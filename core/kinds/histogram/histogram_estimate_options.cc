#include "core/kinds/histogram/histogram_estimate_options.h"

#include <cmath>

#include "core/common/number_text.h"
#include "core/common/validation.h"
#include "core/kinds/histogram/histogram_question_kind.h"

namespace deniable {
namespace {

std::string Shown(const nlohmann::json& value) {
  return value.is_string() ? "\"" + value.get<std::string>() + "\"" : value.dump();
}

Result<double> ReadNumber(const nlohmann::json& value, const std::string& name) {
  std::optional<double> parsed;
  if (value.is_string()) parsed = ParseFiniteNumber(value.get<std::string>());
  if (value.is_number() && std::isfinite(value.get<double>())) parsed = value.get<double>();
  if (!parsed) return MakeError(name + " must be a finite number, but is " + Shown(value));
  return *parsed;
}

// "0,10,25" or [0, 10, 25].
Result<std::vector<double>> ReadEdges(const nlohmann::json& value) {
  std::vector<double> edges;
  if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      DENIABLE_ASSIGN_OR_RETURN(auto edge, ReadNumber(value[i], "edges[" + std::to_string(i) + "]"));
      edges.push_back(edge);
    }
    return edges;
  }
  if (!value.is_string()) return MakeError("edges must be comma-separated numbers, but is " + value.dump());
  const std::string text = value.get<std::string>();
  std::size_t start = 0;
  while (start <= text.size() && edges.size() <= kMaxCustomBins + 1) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    DENIABLE_ASSIGN_OR_RETURN(auto edge,
                              ReadNumber(text.substr(start, comma - start), "edges[" + std::to_string(edges.size()) + "]"));
    edges.push_back(edge);
    start = comma + 1;
  }
  return edges;
}

}  // namespace

std::vector<std::string> PublicHistogramEstimateOptionNames() { return {"edges", "width", kIntervalOption}; }

Result<HistogramEstimateOptions> ParseHistogramEstimateOptions(const nlohmann::json& options) {
  HistogramEstimateOptions parsed;
  if (!options.is_object()) return parsed;
  DENIABLE_ASSIGN_OR_RETURN(auto interval, ReadIntervalTarget(options));
  parsed.interval = interval;
  if (const auto edges = options.find("edges"); edges != options.end() && !edges->is_null()) {
    DENIABLE_ASSIGN_OR_RETURN(auto read, ReadEdges(*edges));
    parsed.edges = std::move(read);
  }
  if (const auto width = options.find("width"); width != options.end() && !width->is_null()) {
    DENIABLE_ASSIGN_OR_RETURN(auto read, ReadNumber(*width, "width"));
    parsed.width = read;
  }
  return parsed;
}

Status ValidateHistogramEstimateOptions(const HistogramQuestionKind& kind, const HistogramEstimateOptions& options) {
  const NumericRange range = kind.range();
  if (options.edges) {
    const auto& edges = *options.edges;
    if (edges.size() < 2 || edges.size() > static_cast<std::size_t>(kMaxCustomBins) + 1) {
      return MakeError("edges must hold 2 to " + std::to_string(kMaxCustomBins + 1) + " numbers, but holds " +
                       std::to_string(edges.size()));
    }
    for (std::size_t i = 0; i < edges.size(); ++i) {
      if (edges[i] < range.low || edges[i] > range.high) {
        return MakeError("edges[" + std::to_string(i) + "] must be inside the range [" + FormatNumber(range.low) +
                         ", " + FormatNumber(range.high) + "], but is " + FormatNumber(edges[i]));
      }
      if (i > 0 && !(edges[i] > edges[i - 1])) {
        return MakeError("edges[" + std::to_string(i) + "]: " + FormatNumber(edges[i]) +
                         " is not above the previous edge " + FormatNumber(edges[i - 1]));
      }
    }
    return OkStatus();
  }
  if (options.width) {
    const double width = *options.width;
    if (!(width > 0.0) || range.width() / width > kMaxCustomBins) {
      return MakeError("width must be positive and give at most " + std::to_string(kMaxCustomBins) +
                       " bins over the range, but is " + FormatNumber(width));
    }
  }
  return OkStatus();
}

Result<nlohmann::json> CanonicalHistogramEstimateOptions(const nlohmann::json& options) {
  DENIABLE_ASSIGN_OR_RETURN(const auto& parsed, ParseHistogramEstimateOptions(options));
  nlohmann::json canonical = {{kIntervalOption, std::string(IntervalTargetName(parsed.interval))}};
  if (parsed.edges) canonical["edges"] = *parsed.edges;
  else if (parsed.width) canonical["width"] = *parsed.width;
  return canonical;
}

std::vector<double> CustomEdges(const HistogramQuestionKind& kind, const HistogramEstimateOptions& options) {
  if (options.edges) return *options.edges;
  if (!options.width) return {};
  const NumericRange range = kind.range();
  std::vector<double> edges = {range.low};
  // Multiples of the width from a (not repeated additions: no drift); an edge
  // within round-off of b is b (no sliver bin).
  const double width = *options.width;
  for (int k = 1; edges.back() < range.high; ++k) {
    const double edge = range.low + k * width;
    edges.push_back(range.high - edge < 1e-9 * width ? range.high : edge);
  }
  return edges;
}

}  // namespace deniable
