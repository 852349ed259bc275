#include "core/survey/interval_target.h"

namespace deniable {

Result<IntervalTarget> ReadIntervalTarget(const nlohmann::json& options) {
  if (!options.is_object() || !options.contains(kIntervalOption)) return IntervalTarget::kPopulation;
  const nlohmann::json& value = options.at(kIntervalOption);
  if (value.is_string()) {
    if (value.get<std::string>() == "population") return IntervalTarget::kPopulation;
    if (value.get<std::string>() == "respondents") return IntervalTarget::kRespondents;
  }
  const std::string shown = value.is_string() ? "\"" + value.get<std::string>() + "\"" : value.dump();
  return MakeError(std::string(kIntervalOption) + " must be \"population\" (the default) or \"respondents\", but is " +
                   shown);
}

std::string_view IntervalTargetName(IntervalTarget target) {
  return target == IntervalTarget::kPopulation ? "population" : "respondents";
}

nlohmann::json IntervalForJson(IntervalTarget target) {
  if (target == IntervalTarget::kPopulation) {
    return {{"target", "population"},
            {"meaning", "95% intervals for the population the respondents were sampled from: they count the "
                        "sampling and the randomisation"}};
  }
  return {{"target", "respondents"},
          {"meaning", "95% intervals for these respondents only: they count the randomisation and hold the "
                      "sample fixed (narrower; not for the population)"}};
}

}  // namespace deniable
