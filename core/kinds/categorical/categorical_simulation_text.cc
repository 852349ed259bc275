#include "core/kinds/categorical/categorical_truth.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/common/text_format.h"
#include "core/common/validation.h"
#include "core/frequency/advisor.h"

namespace deniable {
namespace {

using nlohmann::json;

std::string OptionTable(const json& question) {
  std::size_t width = 6;
  for (const auto& option : question.at("options")) width = std::max(width, option.at("label").get<std::string>().size());
  std::string text =
      "  " + Padded("option", width, false) + "  population     truth  estimate  95% CI                consistent\n";
  for (std::size_t i = 0; i < question.at("options").size(); ++i) {
    const json& option = question.at("options")[i];
    const std::string interval = "[" + Fixed(option.at("ci_low")) + ", " + Fixed(option.at("ci_high")) + "]";
    text += "  " + Padded(option.at("label").get<std::string>(), width, false) + "  " +
            Padded(Fixed(question.at("population")[i]), 10, true) + "  " + Padded(Fixed(question.at("truth")[i]), 8, true) +
            "  " + Padded(Fixed(option.at("frequency")), 8, true) + "  " + Padded(interval, 20, false) + "  " + Padded(Fixed(option.at("consistent_frequency")), 10, true) +
            "\n";
  }
  return text;
}

std::string ErrorLine(const json& question) {
  const json& errors = question.at("errors");
  const std::size_t k = question.at("options").size();
  const auto covered = static_cast<long>(std::lround(errors.at("ci_coverage").get<double>() * static_cast<double>(k)));
  char mse[32];
  std::snprintf(mse, sizeof(mse), "%.3g", errors.at("mse").get<double>());
  return "  errors: L1 " + Fixed(errors.at("l1")) + "  L-inf " + Fixed(errors.at("linf")) + "  MSE " + mse +
         "  CI coverage " + std::to_string(covered) + " of " + std::to_string(k) + " options (of the " +
         (errors.value("ci_target", "") == "respondents" ? "respondents' own frequencies" : "population's frequencies") +
         ")\n";
}

std::string AdviceText(const json& question) {
  const json& advice = question.at("advice");
  if (advice.is_null()) {
    return "  advisor: not applicable (no formal epsilon; the advisor compares mechanisms at one epsilon)\n";
  }
  std::string text = "  advisor for k = " + std::to_string(advice.at("options").get<int>()) + ", epsilon " +
                     EpsilonText(advice.at("epsilon")) + ", n = " + std::to_string(advice.at("respondents").get<long long>()) +
                     ": use " + advice.at("recommended").get<std::string>() + ": " +
                     advice.at("reason").get<std::string>() + "\n";
  text += "    mechanism  epsilon            expected SE  95% CI +-  n for +-5 points\n";
  for (const auto& item : advice.at("mechanisms")) {
    text += "    " + Padded(item.at("mechanism").get<std::string>(), 9, false) + "  " +
            Padded(EpsilonText(item.at("epsilon")), 17, false) + "  " + Padded(Fixed(item.at("std_error")), 11, true) +
            "  " + Padded(Fixed(item.at("ci_half_width")), 9, true) + "  " +
            Padded(std::to_string(item.at("n_for_5_points").get<long long>()), 16, true) + "\n";
  }
  return text;
}

}  // namespace

json CategoricalAdvice(const json& question) {
  const json& epsilon = question.at("privacy").at("epsilon");
  if (!epsilon.is_number()) return nullptr;
  const int k = static_cast<int>(question.at("options").size());
  auto advice = Advise(k, epsilon.get<double>(), question.at("n").get<std::int64_t>());
  return advice ? AdviceToJson(*advice) : json(nullptr);
}

std::string CategoricalSimulationText(const json& question) {
  std::string text = "  mechanism " + question.at("mechanism").at("name").get<std::string>() + ", epsilon " +
                     EpsilonText(question.at("privacy").at("epsilon")) + ", n = " +
                     std::to_string(question.at("n").get<long long>()) + "\n";
  if (question.at("errors").is_null()) return text;  // every simulated respondent skipped it
  return text + OptionTable(question) + ErrorLine(question) + AdviceText(question);
}

}  // namespace deniable
