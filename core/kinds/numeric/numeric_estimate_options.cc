#include "core/kinds/numeric/numeric_estimate_options.h"

#include <cmath>

#include "core/common/number_text.h"

namespace deniable {
namespace {

// Beyond int the values are out of every range anyway: clamped, so the range
// check names the range rather than an overflow.
constexpr long long kIntLimit = 1000000000;

Result<long long> ReadOptionInteger(const nlohmann::json& value, const std::string& name) {
  std::optional<long long> parsed;
  if (value.is_string()) parsed = ParseInteger(value.get<std::string>());
  if (value.is_number_integer()) parsed = value.get<long long>();
  // A whole double (12.0) counts; the magnitude check keeps the cast defined.
  if (value.is_number_float() && std::fabs(value.get<double>()) < 1e15 &&
      value.get<double>() == std::trunc(value.get<double>())) {
    parsed = static_cast<long long>(value.get<double>());
  }
  if (!parsed) {
    const std::string shown = value.is_string() ? "\"" + value.get<std::string>() + "\"" : value.dump();
    return MakeError(name + " must be an integer, but is " + shown);
  }
  return *parsed;
}

Result<int> ReadInt(const nlohmann::json& value, const std::string& name) {
  DENIABLE_ASSIGN_OR_RETURN(auto parsed, ReadOptionInteger(value, name));
  return static_cast<int>(parsed > kIntLimit ? kIntLimit : (parsed < -kIntLimit ? -kIntLimit : parsed));
}

// null: the default.
Result<std::optional<double>> ReadOptionalNumber(const nlohmann::json& value, const std::string& name) {
  if (value.is_null()) return std::optional<double>();
  std::optional<double> parsed;
  if (value.is_string()) parsed = ParseFiniteNumber(value.get<std::string>());
  if (value.is_number()) parsed = value.get<double>();
  if (!parsed) {
    const std::string shown = value.is_string() ? "\"" + value.get<std::string>() + "\"" : value.dump();
    return MakeError(name + " must be a finite number, but is " + shown);
  }
  return parsed;
}

// true/false, or their text (an HTTP query's "true", "false", "1", "0").
Result<bool> ReadFlag(const nlohmann::json& value, const std::string& name) {
  if (value.is_boolean()) return value.get<bool>();
  if (value.is_string()) {
    const std::string text = value.get<std::string>();
    if (text == "true" || text == "1") return true;
    if (text == "false" || text == "0") return false;
  }
  const std::string shown = value.is_string() ? "\"" + value.get<std::string>() + "\"" : value.dump();
  return MakeError(name + " must be true or false, but is " + shown);
}

nlohmann::json OptionalToJson(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

}  // namespace

std::vector<std::string> PublicNumericEstimateOptionNames() {
  return {"estimator", "points", "bin_width", "estimation_cells", "replicates", "curvature_penalty", "mu", "clamp",
          kIntervalOption};
}

Result<NumericEstimateOptions> ParseNumericEstimateOptions(const nlohmann::json& options) {
  NumericEstimateOptions parsed;
  if (!options.is_object()) return parsed;
  for (const auto& [name, value] : options.items()) {
    if (name == kIntervalOption) {
      DENIABLE_ASSIGN_OR_RETURN(auto target, ReadIntervalTarget(options));
      parsed.target = target;
    } else if (name == "estimator" || name == "interval_method") {
      if (!value.is_string()) return MakeError(name + " must be a name, but is " + value.dump());
      // ValidateNumericEstimateOptions names the allowed values.
      (name == "estimator" ? parsed.estimator : parsed.interval_method) = value.get<std::string>();
    } else if (name == "points" || name == "estimation_cells" || name == "replicates" || name == "max_iterations" ||
               name == "mu") {
      DENIABLE_ASSIGN_OR_RETURN(auto number, ReadInt(value, name));
      (name == "points"             ? parsed.points
       : name == "estimation_cells" ? parsed.estimation_cells
       : name == "replicates"       ? parsed.replicates
       : name == "mu"               ? parsed.mu
                                    : parsed.max_iterations) = number;
    } else if (name == "clamp") {
      DENIABLE_ASSIGN_OR_RETURN(auto flag, ReadFlag(value, name));
      parsed.clamp = flag;
    } else if (name == "work_budget") {
      DENIABLE_ASSIGN_OR_RETURN(auto number, ReadOptionInteger(value, name));
      parsed.work_budget = number;
    } else if (name == "bin_width" || name == "curvature_penalty") {
      DENIABLE_ASSIGN_OR_RETURN(auto number, ReadOptionalNumber(value, name));
      (name == "bin_width" ? parsed.bin_width : parsed.curvature_penalty) = number;
    }
  }
  return parsed;
}

nlohmann::json NumericEstimateOptionsToJson(const NumericEstimateOptions& options) {
  return {{"estimator", options.estimator},
          {"estimation_cells", options.estimation_cells},
          {"points", options.points},
          {"bin_width", OptionalToJson(options.bin_width)},
          {"replicates", options.replicates},
          {"curvature_penalty", OptionalToJson(options.curvature_penalty)},
          {"max_iterations", options.max_iterations},
          {"work_budget", options.work_budget},
          {"interval_method", options.interval_method},
          {kIntervalOption, std::string(IntervalTargetName(options.target))},
          {"mu", options.mu},
          {"clamp", options.clamp}};
}

Result<nlohmann::json> CanonicalNumericEstimateOptions(const nlohmann::json& options) {
  DENIABLE_ASSIGN_OR_RETURN(auto parsed, ParseNumericEstimateOptions(options));
  return NumericEstimateOptionsToJson(parsed);
}

}  // namespace deniable
