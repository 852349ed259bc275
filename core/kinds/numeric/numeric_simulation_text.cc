#include "core/kinds/numeric/numeric_simulation.h"

#include <cstdio>

#include "core/common/text_format.h"
#include "core/common/validation.h"

namespace deniable {
namespace {

using nlohmann::json;

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
    const json note = estimate.value("note", json());
    if (note.is_string()) {
      text += std::string("      ") + (estimate.at("value").is_number() ? "unreliable: " : "not shown: ") +
              note.get<std::string>() + "\n";
    }
  }
  const json& unbiased = question.at("unbiased_mean");
  if (unbiased.is_object()) {
    text += StatisticRow("unbiased mean", truth.at("mean"), unbiased.at("value"), unbiased.at("ci_low"),
                         unbiased.at("ci_high"));
  }
  const json own = question.value("mechanism_estimates", json());
  if (own.is_object() && own.contains("mean")) {
    const json& mean = own.at("mean");
    text += StatisticRow("HierA mean (mu " + own.at("mu").dump() + ")", truth.at("mean"), mean.at("value"),
                         mean.at("ci_low"), mean.at("ci_high"));
    if (mean.at("note").is_string()) text += "      " + mean.at("note").get<std::string>() + "\n";
    for (const json& level : own.at("levels")) {
      text += "  level " + level.at("level").dump() + " (epsilon " + Fixed(level.at("epsilon"), 2) + "): share " +
              Fixed(level.at("share"), 3) + " [" + Fixed(level.at("ci_low"), 3) + ", " + Fixed(level.at("ci_high"), 3) +
              "]\n";
    }
  }
  const json& density = question.at("density");
  if (density.is_object() && density.value("note", json()).is_string()) {
    text += "  density: " + density.at("note").get<std::string>() + "\n";
  }
  return text;
}

std::string NumericErrorLine(const json& question) {
  const json& errors = question.at("errors");
  const std::string unit = question.value("unit", std::string());
  const bool has_curve = errors.at("wasserstein1").is_number();
  std::string text = "  errors: W1 " + Fixed(errors.at("wasserstein1"), 4) + (unit.empty() || !has_curve ? "" : " " + unit) +
                     " (reconstructed vs true answers' distribution)  |mean| " + Fixed(errors.at("mean"), 4) +
                     "  |sd| " + Fixed(errors.at("std_dev"), 4) + "  |median| " + Fixed(errors.at("median"), 4) +
                     "\n  true mean (its interval's target) inside the 95% interval: " +
                     (errors.at("mean_covered").get<bool>() ? "yes" : "no");
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


// "the population" or "these respondents" (results' interval_for).
std::string IntervalTargetText(const json& question) {
  const json target = question.value("interval_for", json::object()).value("target", json("population"));
  return target == "respondents" ? "these respondents (the mean; the rest for the population)" : "the population";
}

// Which method made the intervals (results' bootstrap.interval).
std::string IntervalMethodLine(const json& question) {
  const json& bootstrap = question.at("bootstrap");
  const bool pilot = bootstrap.value("world", std::string()) == "pilot";
  return "  intervals: " + bootstrap.value("interval", std::string("basic")) + " parametric bootstrap, " +
         std::to_string(bootstrap.at("replicates").get<int>()) + " replicates" +
         (pilot ? " drawn from a less smoothed fit" : "") +
         "; quartiles widened for the estimator's blur; mean, sd, skewness and kurtosis hold the reports' own "
         "moment intervals; for " + IntervalTargetText(question) + "\n";
}

}  // namespace

std::string NumericSimulationText(const json& question) {
  const json& range = question.at("range");
  const std::string unit = question.value("unit", std::string());
  std::string text = "  numeric in [" + FormatNumber(range[0].get<double>()) + ", " +
                     FormatNumber(range[1].get<double>()) + "]" + (unit.empty() ? "" : " " + unit) + ", mechanism " +
                     question.at("mechanism").at("name").get<std::string>() + MechanismParams(question.at("mechanism")) +
                     ", " + NumericEpsilonText(question.at("privacy").at("epsilon")) + ", n = " +
                     std::to_string(question.at("n").get<long long>()) + ", estimator " +
                     question.at("estimator").get<std::string>() + PenaltyText(question) + "\n";
  if (question.at("errors").is_null()) return text + "  estimation failed\n";
  return text + NumericStatisticsTable(question) + IntervalMethodLine(question) + NumericErrorLine(question);
}

}  // namespace deniable
