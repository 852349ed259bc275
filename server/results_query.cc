#include "server/results_query.h"

#include <optional>

#include "server/number_parsing.h"

namespace deniable::server {
namespace {

ApiError InvalidQuery(const std::string& message) { return ApiError{400, "invalid_query", message}; }

std::optional<ApiError> ParseIntOption(const std::string& name, const std::string& text, int& target) {
  const auto value = ParseInteger(text);
  // Values beyond int are out of core's ranges anyway; clamp so core names the range.
  if (!value) return InvalidQuery("query parameter " + name + " must be an integer, but is \"" + text + "\"");
  constexpr long long kIntLimit = 1000000000;
  target = static_cast<int>(*value > kIntLimit ? kIntLimit : (*value < -kIntLimit ? -kIntLimit : *value));
  return std::nullopt;
}

std::optional<ApiError> ParseOption(const std::string& name, const std::string& text, NumericEstimateOptions& options) {
  if (name == "estimator") {
    options.estimator = text;  // core names the allowed values
    return std::nullopt;
  }
  if (name == "points") return ParseIntOption(name, text, options.points);
  if (name == "estimation_cells") return ParseIntOption(name, text, options.estimation_cells);
  if (name == "replicates") return ParseIntOption(name, text, options.replicates);
  if (name == "bin_width" || name == "curvature_penalty") {
    const auto value = ParseFiniteNumber(text);
    if (!value) return InvalidQuery("query parameter " + name + " must be a finite number, but is \"" + text + "\"");
    (name == "bin_width" ? options.bin_width : options.curvature_penalty) = *value;
    return std::nullopt;
  }
  return InvalidQuery("unknown query parameter \"" + name +
                      "\": results accept estimator, points, bin_width, estimation_cells, replicates, "
                      "curvature_penalty");
}

std::optional<ApiError> ValidateForQuestions(const Survey& survey, const NumericEstimateOptions& options) {
  for (const Question& question : survey.questions) {
    if (!question.is_numeric()) continue;
    const Status status = ValidateNumericEstimateOptions(question, options);
    if (!status.ok()) return InvalidQuery("question \"" + question.id + "\": " + status.error());
  }
  return std::nullopt;
}

}  // namespace

std::variant<NumericEstimateOptions, ApiError> ParseResultsQuery(const Survey& survey, const ApiRequest& request) {
  if (!request.repeated_query.empty()) {
    return InvalidQuery("query parameter " + request.repeated_query.front() + " is given more than once");
  }
  NumericEstimateOptions options;
  for (const auto& [name, text] : request.query) {
    if (auto error = ParseOption(name, text, options)) return *error;
  }
  if (auto error = ValidateForQuestions(survey, options)) return *error;
  return options;
}

std::string NumericOptionsKey(const NumericEstimateOptions& options) {
  const nlohmann::json key = {options.estimator, options.estimation_cells, options.points,
                              options.bin_width ? nlohmann::json(*options.bin_width) : nlohmann::json(),
                              options.replicates,
                              options.curvature_penalty ? nlohmann::json(*options.curvature_penalty) : nlohmann::json()};
  return key.dump();
}

}  // namespace deniable::server
