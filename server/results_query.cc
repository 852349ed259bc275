#include "server/results_query.h"

#include <algorithm>
#include <vector>

#include "core/survey/interval_target.h"
#include "core/survey/kind_registry.h"
#include "core/survey/results.h"

namespace deniable::server {
namespace {

ApiError InvalidQuery(const std::string& message) { return ApiError{400, "invalid_query", message}; }

// Every kind's, and "interval" (what the intervals are for: interval_target.h).
std::vector<std::string> PublicOptionNames() {
  std::vector<std::string> names = {kIntervalOption};
  for (const auto& kind : RegisteredKinds()) {
    for (const auto& name : kind.public_estimate_options) {
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  }
  return names;
}

// A survey-wide name, or "<question id>.<name>" (results.h).
std::optional<ApiError> RejectUnknownNames(const nlohmann::json& options) {
  const auto known = PublicOptionNames();
  for (const auto& item : options.items()) {
    const auto dot = item.key().find('.');
    const std::string name = dot == std::string::npos ? item.key() : item.key().substr(dot + 1);
    if (std::find(known.begin(), known.end(), name) != known.end()) continue;
    std::string list;
    for (const auto& name : known) list += (list.empty() ? "" : ", ") + name;
    return InvalidQuery("unknown query parameter \"" + item.key() + "\": results accept " + list +
                        ", each also as <question id>.<name> for one question");
  }
  return std::nullopt;
}

// Every kind's canonical options and the interval target, or the first
// complaint about a value's form.
Result<nlohmann::json> CanonicalPerKind(const nlohmann::json& options) {
  nlohmann::json key = nlohmann::json::object();
  auto target = ReadIntervalTarget(options);
  if (!target) return MakeError(target.error());
  key[kIntervalOption] = std::string(IntervalTargetName(*target));
  for (const auto& kind : RegisteredKinds()) {
    auto canonical = kind.canonical_estimate_options(options);
    if (!canonical) return MakeError(canonical.error());
    key[std::string(kind.type)] = std::move(canonical).value();
  }
  return key;
}

// The survey-wide canonical options and, per question given its own, that
// question's; equal keys give equal documents.
Result<std::string> CanonicalKey(const Survey* survey, const nlohmann::json& options) {
  nlohmann::json key = nlohmann::json::object();
  auto shared = CanonicalPerKind(OptionsForQuestion(options, ""));
  if (!shared) return MakeError(shared.error());
  key["survey"] = std::move(shared).value();
  if (survey == nullptr) return key.dump();
  for (const Question& question : survey->questions) {
    const std::string prefix = question.id + ".";
    bool own = false;
    for (const auto& item : options.items()) own = own || item.key().rfind(prefix, 0) == 0;
    if (!own) continue;
    auto canonical = CanonicalPerKind(OptionsForQuestion(options, question.id));
    if (!canonical) return MakeError(question.id + "." + canonical.error());
    key["question " + question.id] = std::move(canonical).value();
  }
  return key.dump();
}

}  // namespace

std::variant<EstimateQuery, ApiError> ParseResultsQuery(const Survey& survey, const ApiRequest& request) {
  if (!request.repeated_query.empty()) {
    return InvalidQuery("query parameter " + request.repeated_query.front() + " is given more than once");
  }
  nlohmann::json options = nlohmann::json::object();
  for (const auto& [name, text] : request.query) options[name] = text;
  if (auto error = RejectUnknownNames(options)) return *error;
  auto key = CanonicalKey(&survey, options);
  if (!key) return InvalidQuery("query parameter " + key.error());
  if (auto status = ValidateEstimateOptions(survey, options); !status) return InvalidQuery(status.error());
  return EstimateQuery{std::move(options), std::move(key).value()};
}

std::string DefaultEstimateOptionsKey() { return *CanonicalKey(nullptr, nlohmann::json::object()); }

}  // namespace deniable::server
