#include "core/kinds/regression/model_results.h"

#include <cmath>
#include <cstdio>

#include "core/common/validation.h"

namespace deniable {

std::vector<double> RawCoefficients(const ModelDefinition& model, const std::vector<double>& normalised) {
  const double target_half = model.target_range.width() / 2.0;
  std::vector<double> raw(normalised.size(), 0.0);
  double intercept = model.target_range.low + target_half * (1.0 + normalised[0]);
  for (std::size_t j = 1; j < normalised.size(); ++j) {
    const NumericRange range = model.feature_ranges[j - 1];
    raw[j] = normalised[j] * model.target_range.width() / range.width();
    intercept -= target_half * normalised[j] + raw[j] * range.low;
  }
  raw[0] = intercept;
  return raw;
}

std::vector<double> NormalisedCoefficients(const ModelDefinition& model, const std::vector<double>& raw) {
  const double target_half = model.target_range.width() / 2.0;
  std::vector<double> normalised(raw.size(), 0.0);
  double shifted = raw[0];  // b0 = (raw0 + sum s_j a_j - a_y)/(w_y/2) - 1 + sum b_j
  for (std::size_t j = 1; j < raw.size(); ++j) {
    const NumericRange range = model.feature_ranges[j - 1];
    normalised[j] = raw[j] * range.width() / model.target_range.width();
    shifted += raw[j] * range.low;
  }
  double b0 = (shifted - model.target_range.low) / target_half - 1.0;
  for (std::size_t j = 1; j < raw.size(); ++j) b0 += normalised[j];
  normalised[0] = b0;
  return normalised;
}

std::vector<double> FinalCoefficients(const ModelTrajectory& trajectory) {
  const std::size_t rounds = trajectory.steps.size();
  if (rounds == 0) return {};
  const std::size_t first = rounds / 2;
  std::vector<double> average(trajectory.current.size(), 0.0);
  for (std::size_t r = first; r < rounds; ++r) {
    for (std::size_t j = 0; j < average.size(); ++j) average[j] += trajectory.steps[r].coefficients[j];
  }
  for (double& value : average) value /= static_cast<double>(rounds - first);
  return average;
}

namespace {

// The spread (sd) of the averaged iterates: how much the last rounds moved.
std::vector<double> IterateSpread(const ModelTrajectory& trajectory, const std::vector<double>& mean) {
  const std::size_t rounds = trajectory.steps.size();
  const std::size_t first = rounds / 2;
  std::vector<double> spread(mean.size(), 0.0);
  if (rounds - first < 2) return spread;
  for (std::size_t r = first; r < rounds; ++r) {
    for (std::size_t j = 0; j < mean.size(); ++j) spread[j] += std::pow(trajectory.steps[r].coefficients[j] - mean[j], 2);
  }
  for (double& value : spread) value = std::sqrt(value / static_cast<double>(rounds - first - 1));
  return spread;
}

std::vector<std::string> Names(const ModelDefinition& model) {
  std::vector<std::string> names = {"intercept"};
  for (const auto& feature : model.features) names.push_back(feature);
  return names;
}

}  // namespace

nlohmann::json ModelResultToJson(const ModelDefinition& model, const ModelAggregate& aggregate) {
  const ModelTrajectory trajectory = ReplayModel(model, aggregate);
  nlohmann::json rounds = nlohmann::json::array();
  rounds.push_back({{"round", 0}, {"reports", 0}, {"coefficients", trajectory.initial},
                    {"coefficients_raw", RawCoefficients(model, trajectory.initial)}});
  for (const ModelStep& step : trajectory.steps) {
    rounds.push_back({{"round", step.round}, {"reports", step.reports}, {"gradient", step.gradient},
                      {"coefficients", step.coefficients}, {"coefficients_raw", RawCoefficients(model, step.coefficients)}});
  }
  const long long current = aggregate.CurrentRound();
  const auto in_current = aggregate.rounds().count(current) ? aggregate.rounds().at(current).reports : 0;
  nlohmann::json document = {{"n", aggregate.n()},
                             {"target", model.target},
                             {"features", model.features},
                             {"names", Names(model)},
                             {"batch", aggregate.batch()},
                             {"rounds_completed", trajectory.steps.size()},
                             {"current_round", current},
                             {"current_round_reports", in_current},
                             {"rounds", rounds},
                             {"coefficients", nullptr},
                             {"warning", nullptr}};
  const std::vector<double> final_coefficients = FinalCoefficients(trajectory);
  if (final_coefficients.empty()) {
    document["warning"] = "no round is complete yet (" + std::to_string(in_current) + " of " +
                          std::to_string(aggregate.batch()) + " reports in round 1): no coefficients yet";
    return document;
  }
  const std::size_t first = trajectory.steps.size() / 2;
  const std::vector<double> spread = IterateSpread(trajectory, final_coefficients);
  const std::vector<double> raw = RawCoefficients(model, final_coefficients);
  std::vector<double> raw_spread;
  for (std::size_t j = 0; j < spread.size(); ++j) {
    raw_spread.push_back(j == 0 ? spread[0] * model.target_range.width() / 2.0
                                : spread[j] * model.target_range.width() / model.feature_ranges[j - 1].width());
  }
  document["coefficients"] = {
      {"normalised", final_coefficients},
      {"raw", raw},
      {"averaged_rounds", {trajectory.steps[first].round, trajectory.steps.back().round}},
      {"spread", spread},
      {"spread_raw", raw_spread},
      {"uncertainty",
       "averaged over rounds " + std::to_string(trajectory.steps[first].round) + " to " +
           std::to_string(trajectory.steps.back().round) +
           ". The spread is how much the coefficients still moved over those rounds (one standard deviation of the "
           "iterates), not a confidence interval: stochastic gradient descent on clipped, noisy gradients has no "
           "honest interval, and clipping biases the coefficients towards zero when residuals are large"}};
  if (trajectory.steps.size() < 10) {
    const std::size_t rounds = trajectory.steps.size();
    document["warning"] = std::to_string(rounds) + (rounds == 1 ? " round" : " rounds") +
                          " complete: too few for the model to have converged; watch the convergence chart";
  }
  return document;
}

std::vector<CsvRow> ModelCsvRows(const nlohmann::json& result) {
  std::vector<CsvRow> rows;
  const auto& names = result.at("names");
  const auto& coefficients = result.at("coefficients");
  for (std::size_t j = 0; j < names.size(); ++j) {
    CsvRow row;
    row.label = names[j].get<std::string>();
    row.measure = "coefficient";
    // No standard error or interval: SGD on clipped noisy gradients has no honest one (see "uncertainty").
    if (coefficients.is_object()) row.estimate = coefficients.at("raw")[j];
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string ModelSimulationText(const nlohmann::json& result) {
  std::string text = "  rounds complete: " + result.at("rounds_completed").dump() + " (batch " +
                     result.at("batch").dump() + ")\n";
  const auto& coefficients = result.at("coefficients");
  const auto& names = result.at("names");
  const nlohmann::json truth = result.value("truth", nlohmann::json());
  if (coefficients.is_object()) {
    text += "  coefficient          truth   estimate  spread (last rounds)\n";
    for (std::size_t j = 0; j < names.size(); ++j) {
      char line[160];
      const double true_value = truth.is_object() ? truth.at("coefficients_raw")[j].get<double>() : NAN;
      std::snprintf(line, sizeof line, "  %-16s %10.4g %10.4g  %.3g\n", names[j].get<std::string>().c_str(), true_value,
                    coefficients.at("raw")[j].get<double>(), coefficients.at("spread_raw")[j].get<double>());
      text += line;
    }
  }
  const nlohmann::json errors = result.value("errors", nlohmann::json());
  if (errors.is_object() && errors.at("mse_private").is_number()) {
    char line[240];
    std::snprintf(line, sizeof line,
                  "  prediction MSE (normalised target): private %.4g, least squares %.4g, true coefficients %.4g\n",
                  errors.at("mse_private").get<double>(), errors.at("mse_least_squares").get<double>(),
                  errors.at("mse_true").get<double>());
    text += line;
  }
  if (result.at("warning").is_string()) text += "  warning: " + result.at("warning").get<std::string>() + "\n";
  return text;
}

}  // namespace deniable
