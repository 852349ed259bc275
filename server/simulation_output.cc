#include "server/simulation_output.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/advisor.h"
#include "core/validation.h"

namespace deniable::server {
namespace {

using nlohmann::json;

std::string Fixed(const json& value, int decimals = 4) {
  if (!value.is_number()) return "-";
  char text[64];
  std::snprintf(text, sizeof(text), "%.*f", decimals, value.get<double>());
  return text;
}

std::string Padded(std::string text, std::size_t width, bool right_align) {
  if (text.size() >= width) return text;
  const std::string padding(width - text.size(), ' ');
  return right_align ? padding + text : text + padding;
}

std::string EpsilonText(const json& epsilon) {
  return epsilon.is_number() ? FormatNumber(epsilon.get<double>()) : "no formal epsilon";
}

json QuestionAdvice(const json& question) {
  // The advisor compares categorical mechanisms; numeric questions have none.
  if (question.value("type", std::string("categorical")) == "numeric" || !question.contains("options")) return nullptr;
  const json& epsilon = question.at("privacy").at("epsilon");
  if (!epsilon.is_number()) return nullptr;
  const int k = static_cast<int>(question.at("options").size());
  auto advice = Advise(k, epsilon.get<double>(), question.at("n").get<std::int64_t>());
  return advice ? AdviceToJson(*advice) : json(nullptr);
}

std::string OptionTable(const json& question) {
  std::size_t width = 6;
  for (const auto& option : question.at("options")) width = std::max(width, option.at("label").get<std::string>().size());
  std::string text = "  " + Padded("option", width, false) + "     truth  estimate  95% CI                consistent\n";
  for (std::size_t i = 0; i < question.at("options").size(); ++i) {
    const json& option = question.at("options")[i];
    const std::string interval = "[" + Fixed(option.at("ci_low")) + ", " + Fixed(option.at("ci_high")) + "]";
    text += "  " + Padded(option.at("label").get<std::string>(), width, false) + "  " +
            Padded(Fixed(question.at("truth")[i]), 8, true) + "  " + Padded(Fixed(option.at("frequency")), 8, true) +
            "  " + Padded(interval, 20, false) + "  " + Padded(Fixed(option.at("consistent_frequency")), 10, true) +
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
         "  CI coverage " + std::to_string(covered) + " of " + std::to_string(k) + " options\n";
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

std::string MechanismParams(const json& mechanism) {
  std::string text;
  for (const auto& item : mechanism.items()) {
    if (item.key() == "name") continue;
    text += (text.empty() ? "" : ", ") + item.key() + " " +
            (item.value().is_number()   ? FormatNumber(item.value().get<double>())
             : item.value().is_string() ? item.value().get<std::string>()
                                        : item.value().dump());
  }
  return text.empty() ? "" : " (" + text + ")";
}

std::string StatisticRow(const std::string& label, const json& truth, const json& estimate, const json& low,
                         const json& high) {
  const std::string interval = "[" + Fixed(low, 3) + ", " + Fixed(high, 3) + "]";
  return "  " + Padded(label, 14, false) + "  " + Padded(Fixed(truth, 3), 10, true) + "  " +
         Padded(Fixed(estimate, 3), 10, true) + "  " + interval + "\n";
}

std::string NumericStatisticsTable(const json& question) {
  const json& truth = question.at("truth");
  const json& statistics = question.at("statistics");
  std::string text = "  statistic            truth    estimate  95% interval\n";
  for (const char* name : {"mean", "std_dev", "median", "lower_quartile", "upper_quartile"}) {
    const json& estimate = statistics.at(name);
    text += StatisticRow(name, truth.at(name), estimate.at("value"), estimate.at("low"), estimate.at("high"));
  }
  const json& unbiased = question.at("unbiased_mean");
  if (unbiased.is_object()) {
    text += StatisticRow("unbiased mean", truth.at("mean"), unbiased.at("value"), unbiased.at("ci_low"),
                         unbiased.at("ci_high"));
  }
  return text;
}

std::string NumericErrorLine(const json& question) {
  const json& errors = question.at("errors");
  const std::string unit = question.value("unit", std::string());
  std::string text = "  errors: W1 " + Fixed(errors.at("wasserstein1"), 4) + (unit.empty() ? "" : " " + unit) +
                     " (reconstructed vs true answers' distribution)  |mean| " + Fixed(errors.at("mean"), 4) +
                     "  |sd| " + Fixed(errors.at("std_dev"), 4) + "  |median| " + Fixed(errors.at("median"), 4) +
                     "\n  true mean inside the 95% interval: " + (errors.at("mean_covered").get<bool>() ? "yes" : "no");
  if (errors.at("unbiased_mean_covered").is_boolean()) {
    text += std::string("; inside the unbiased mean's CI: ") +
            (errors.at("unbiased_mean_covered").get<bool>() ? "yes" : "no");
  }
  return text + "\n";
}

// ", curvature penalty 0.00063" for PML (two significant digits), with
// " (lowered by the marginal likelihood)" or " (yours)" when it is not the
// sqrt(N) rule's; else "".
std::string PenaltyText(const json& question) {
  const auto penalty = question.find("curvature_penalty");
  if (penalty == question.end() || !penalty->is_number()) return "";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2g", penalty->get<double>());
  const auto rule = question.find("curvature_penalty_rule");
  std::string origin;
  if (rule != question.end() && *rule == "marginal_likelihood") origin = " (lowered by the marginal likelihood)";
  if (rule != question.end() && *rule == "analyst") origin = " (yours)";
  return std::string(", curvature penalty ") + buffer + origin;
}

std::string NumericEpsilonText(const json& epsilon) {
  return epsilon.is_number() ? "epsilon " + FormatNumber(epsilon.get<double>()) : "no formal epsilon";
}

std::string NumericQuestionText(const json& question) {
  const json& range = question.at("range");
  const std::string unit = question.value("unit", std::string());
  std::string text = "Question \"" + question.at("id").get<std::string>() + "\": " +
                     question.at("text").get<std::string>() + "\n";
  text += "  numeric in [" + FormatNumber(range[0].get<double>()) + ", " + FormatNumber(range[1].get<double>()) + "]" +
          (unit.empty() ? "" : " " + unit) + ", mechanism " + question.at("mechanism").at("name").get<std::string>() +
          MechanismParams(question.at("mechanism")) + ", " + NumericEpsilonText(question.at("privacy").at("epsilon")) +
          ", n = " + std::to_string(question.at("n").get<long long>()) + ", estimator " +
          question.at("estimator").get<std::string>() + PenaltyText(question) + "\n";
  if (question.at("errors").is_null()) return text + "  estimation failed\n";
  text += NumericStatisticsTable(question) + NumericErrorLine(question);
  if (question.at("warning").is_string()) text += "  warning: " + question.at("warning").get<std::string>() + "\n";
  return text;
}

std::string QuestionText(const json& question) {
  if (question.contains("error")) {
    return "Question \"" + question.at("id").get<std::string>() +
           "\": estimation failed: " + question.at("error").get<std::string>() + "\n";
  }
  if (question.value("type", std::string("categorical")) == "numeric") return NumericQuestionText(question);
  std::string text = "Question \"" + question.at("id").get<std::string>() + "\": " +
                     question.at("text").get<std::string>() + "\n";
  text += "  mechanism " + question.at("mechanism").at("name").get<std::string>() + ", epsilon " +
          EpsilonText(question.at("privacy").at("epsilon")) + ", n = " +
          std::to_string(question.at("n").get<long long>()) + "\n";
  text += OptionTable(question) + ErrorLine(question) + AdviceText(question);
  if (question.at("warning").is_string()) text += "  warning: " + question.at("warning").get<std::string>() + "\n";
  return text;
}

std::string TotalEpsilonText(const json& document) {
  if (document.at("total_epsilon").is_number()) {
    return "Total epsilon per respondent (sequential composition): " +
           FormatNumber(document.at("total_epsilon").get<double>()) + "\n";
  }
  return "Total epsilon per respondent: none (" + document.value("total_epsilon_note", std::string("no formal epsilon")) +
         ")\n";
}

}  // namespace

void AddAdvice(json& document) {
  for (auto& question : document.at("questions")) question["advice"] = QuestionAdvice(question);
}

std::string FormatSimulationText(const json& document) {
  std::string text = "Simulation of survey \"" + document.at("survey").get<std::string>() + "\" version " +
                     std::to_string(document.at("version").get<int>()) + ": " +
                     std::to_string(document.at("respondents").get<long long>()) + " respondents, seed " +
                     std::to_string(document.at("seed").get<std::uint64_t>()) +
                     " (seeded randomness: reproducible, NOT private)\n\n";
  for (const auto& question : document.at("questions")) text += QuestionText(question) + "\n";
  return text + TotalEpsilonText(document);
}

}  // namespace deniable::server
