#include "server/surveys/estimate_query.h"

#include <algorithm>
#include <vector>

#include "core/survey/interval_target.h"
#include "core/survey/kind_registry.h"
#include "core/survey/results.h"

namespace deniable::server {
namespace {

// Every kind's canonical options and the interval target, or the first
// complaint about a value's form.
Result<nlohmann::json> CanonicalPerKind(const nlohmann::json& options) {
  nlohmann::json key = nlohmann::json::object();
  DENIABLE_ASSIGN_OR_RETURN(auto target, ReadIntervalTarget(options));
  key[kIntervalOption] = std::string(IntervalTargetName(target));
  for (const auto& kind : RegisteredKinds()) {
    DENIABLE_ASSIGN_OR_RETURN(auto canonical, kind.canonical_estimate_options(options));
    key[std::string(kind.type)] = std::move(canonical);
  }
  return key;
}

}  // namespace

// Every kind's, and "interval" (what the intervals are for: interval_target.h).
std::vector<std::string> PublicEstimateOptionNames() {
  std::vector<std::string> names = {kIntervalOption};
  for (const auto& kind : RegisteredKinds()) {
    for (const auto& name : kind.public_estimate_options) {
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  }
  return names;
}

// The survey-wide canonical options and, per question given its own, that
// question's; equal keys give equal documents.
Result<std::string> EstimateOptionsKey(const Survey* survey, const nlohmann::json& options) {
  nlohmann::json key = nlohmann::json::object();
  DENIABLE_ASSIGN_OR_RETURN(auto shared, CanonicalPerKind(OptionsForQuestion(options, "")));
  key["survey"] = std::move(shared);
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

// Asked on every results request: computed once (the registered kinds never change).
std::string DefaultEstimateOptionsKey() {
  static const std::string key = *EstimateOptionsKey(nullptr, nlohmann::json::object());
  return key;
}

}  // namespace deniable::server
