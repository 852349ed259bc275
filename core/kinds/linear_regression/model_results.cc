#include "core/kinds/linear_regression/model_results.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/common/validation.h"
#include "core/common/student_t.h"
#include "core/kinds/linear_regression/model_score.h"

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

MeanInterval ChainMeanInterval(const std::vector<std::vector<double>>& estimates) {
  const std::size_t k = estimates.size();
  const std::size_t width = estimates.front().size();
  MeanInterval interval;
  interval.t_quantile = StudentTTwoSidedQuantile(0.95, static_cast<int>(k) - 1);
  interval.mean.assign(width, 0.0);
  for (const auto& estimate : estimates) {
    for (std::size_t j = 0; j < width; ++j) interval.mean[j] += estimate[j] / static_cast<double>(k);
  }
  for (std::size_t j = 0; j < width; ++j) {
    double squares = 0.0;
    for (const auto& estimate : estimates) squares += std::pow(estimate[j] - interval.mean[j], 2);
    const double error = std::sqrt(squares / static_cast<double>(k - 1) / static_cast<double>(k));
    interval.standard_error.push_back(error);
    interval.low.push_back(interval.mean[j] - interval.t_quantile * error);
    interval.high.push_back(interval.mean[j] + interval.t_quantile * error);
  }
  return interval;
}

namespace {

std::vector<std::string> Names(const ModelDefinition& model) {
  std::vector<std::string> names = {"intercept"};
  for (const auto& feature : model.features) names.push_back(feature);
  return names;
}

nlohmann::json Pairs(const std::vector<double>& low, const std::vector<double>& high) {
  nlohmann::json pairs = nlohmann::json::array();
  for (std::size_t j = 0; j < low.size(); ++j) pairs.push_back({low[j], high[j]});
  return pairs;
}

// What the model's intervals cover (the kind's "interval_for").
nlohmann::json ModelIntervalFor(IntervalTarget requested) {
  nlohmann::json target = IntervalForJson(IntervalTarget::kPopulation);
  target["meaning"] =
      "95% intervals for the coefficients this private training gives on the population the respondents were drawn "
      "from, at this number of respondents: the mean, over repeated surveys (other respondents, other arrival orders, "
      "other randomisation), of the published average of the chains. They count the sampling, the randomisation and "
      "the order of arrival. They are not intervals for the population's least-squares coefficients: clipping and a "
      "finite number of rounds move the private coefficients (towards zero), and the intervals do not include that";
  if (requested == IntervalTarget::kRespondents) {
    target["note"] = "the model has no interval that holds the respondents fixed: its chains' disagreement includes "
                     "which respondents each chain saw, so as an interval for these respondents (other arrival orders "
                     "and randomisation of the same people) it is wider than needed";
  }
  return target;
}

// The chains' estimates and, when every chain has one (K >= 2), the interval.
nlohmann::json CoefficientsJson(const ModelDefinition& model, const ModelTrajectory& trajectory) {
  const std::vector<ChainEstimate> estimates = ChainEstimates(trajectory);
  const std::vector<double> final_coefficients = FinalCoefficients(trajectory);
  nlohmann::json by_chain = nlohmann::json::array();
  std::vector<std::vector<double>> normalised, raw;
  for (const ChainEstimate& estimate : estimates) {
    normalised.push_back(estimate.normalised);
    raw.push_back(RawCoefficients(model, estimate.normalised));
    by_chain.push_back({{"chain", estimate.chain + 1},
                        {"averaged_rounds", {estimate.first_round, estimate.last_round}},
                        {"normalised", estimate.normalised},
                        {"raw", raw.back()}});
  }
  const int chains = model.chains();
  nlohmann::json coefficients = {{"normalised", final_coefficients},
                                 {"raw", RawCoefficients(model, final_coefficients)},
                                 {"chains", chains},
                                 {"by_chain", by_chain},
                                 {"standard_error", nullptr},
                                 {"standard_error_raw", nullptr},
                                 {"interval", nullptr},
                                 {"interval_raw", nullptr}};
  const std::string averaged = "each chain's coefficients are the average of its iterates over the last half of its "
                               "rounds; ";
  if (chains < 2) {
    coefficients["uncertainty"] = averaged + "one chain (\"chains\": 1): no interval. How much one run's coefficients "
                                  "vary cannot be told from the run itself; declare 2 or more chains for an interval";
    return coefficients;
  }
  if (static_cast<int>(estimates.size()) < chains) {
    coefficients["uncertainty"] = averaged + std::to_string(estimates.size()) + " of the " + std::to_string(chains) +
                                  " chains have a complete round: no interval until every chain has one";
    return coefficients;
  }
  const MeanInterval on_scale = ChainMeanInterval(normalised);
  const MeanInterval in_units = ChainMeanInterval(raw);
  coefficients["raw"] = in_units.mean;  // the same, up to rounding: the conversion is affine
  coefficients["standard_error"] = on_scale.standard_error;
  coefficients["standard_error_raw"] = in_units.standard_error;
  coefficients["interval"] = Pairs(on_scale.low, on_scale.high);
  coefficients["interval_raw"] = Pairs(in_units.low, in_units.high);
  coefficients["t_quantile"] = in_units.t_quantile;
  char quantile[32];
  std::snprintf(quantile, sizeof quantile, "%.3f", in_units.t_quantile);
  coefficients["uncertainty"] =
      averaged + "the coefficients are the average of " + std::to_string(chains) +
      " independent chains (the rounds are dealt to them in turn), and the 95% interval is that average plus or minus " +
      quantile + " (Student's t, " + std::to_string(chains - 1) + " degrees of freedom) times the chains' standard "
      "deviation over the square root of " + std::to_string(chains) + ", in the variables' units for every "
      "coefficient. It covers how much the whole training varies from run to run, not the distance to least squares";
  return coefficients;
}

// Each chain's fewest complete rounds.
std::size_t FewestChainRounds(const ModelTrajectory& trajectory) {
  std::vector<std::size_t> rounds(trajectory.chains.size(), 0);
  for (const ModelStep& step : trajectory.steps) ++rounds[static_cast<std::size_t>(step.place.chain)];
  return *std::min_element(rounds.begin(), rounds.end());
}


// The listed rounds (model_series.h): each its chain's coefficients after the
// step and the chains' average then (the convergence chart). The average is
// kept as a running sum, so the cost is O(rounds x components) whatever is listed.
nlohmann::json RoundsJson(const ModelDefinition& model, const ModelTrajectory& trajectory, const SeriesSelection& selection) {
  nlohmann::json rounds = nlohmann::json::array();
  const std::vector<double> initial_raw = RawCoefficients(model, trajectory.initial);
  const bool from_start = selection.steps.empty() || selection.steps.front() == 0;
  if (from_start) {
    rounds.push_back({{"round", 0}, {"reports", 0}, {"coefficients", trajectory.initial},
                      {"coefficients_raw", initial_raw}, {"average_raw", initial_raw}});
  }
  const double chains = static_cast<double>(trajectory.chains.size());
  std::vector<std::vector<double>> latest(trajectory.chains.size(), trajectory.initial);
  std::vector<double> sum(trajectory.initial.size(), 0.0);
  for (std::size_t j = 0; j < sum.size(); ++j) sum[j] = trajectory.initial[j] * chains;
  std::size_t next = 0;
  for (std::size_t i = 0; i < trajectory.steps.size() && next < selection.steps.size(); ++i) {
    const ModelStep& step = trajectory.steps[i];
    std::vector<double>& chain = latest[static_cast<std::size_t>(step.place.chain)];
    for (std::size_t j = 0; j < sum.size(); ++j) sum[j] += step.coefficients[j] - chain[j];
    chain = step.coefficients;
    if (selection.steps[next] != i) continue;
    ++next;
    std::vector<double> average(sum.size());
    for (std::size_t j = 0; j < sum.size(); ++j) average[j] = sum[j] / chains;
    rounds.push_back({{"round", step.round}, {"chain", step.place.chain + 1}, {"reports", step.reports},
                      {"gradient", step.gradient}, {"coefficients", step.coefficients},
                      {"coefficients_raw", RawCoefficients(model, step.coefficients)},
                      {"average_raw", RawCoefficients(model, average)}});
  }
  return rounds;
}

// The held-out rounds' estimate of the final coefficients' prediction error
// (model_score.h), or why there is none.
nlohmann::json OutOfSampleJson(const ModelDefinition& model, const ModelAggregate& aggregate,
                               const ModelTrajectory& trajectory) {
  if (model.holdout_rounds() == 0) {
    return {{"mse", nullptr},
            {"note", "no held-out rounds (\"holdout\": 0): every report is a noisy gradient component, whose "
                     "mean says which way the coefficients should move but not how far the predictions are from "
                     "the answers (the intercept's component averages 2 x the residual, whose square is not the "
                     "mean squared residual), so no report estimates the prediction error. Declare a holdout "
                     "share for an unbiased out-of-sample error"}};
  }
  const long long first = model.training_rounds() + 1;
  std::int64_t reports = 0;
  double sum = 0.0, squares = 0.0;
  for (auto at = aggregate.rounds().lower_bound(first); at != aggregate.rounds().end(); ++at) {
    reports += at->second.count[0];
    sum += at->second.sum[0];
    squares += at->second.squares;
  }
  nlohmann::json document = {{"rounds", {first, model.max_rounds()}}, {"reports", reports}, {"mse", nullptr}};
  const auto estimate = EstimateScore(reports, sum, squares);
  if (!estimate) {
    document["note"] = "the held-out rounds " + std::to_string(first) + " to " + std::to_string(model.max_rounds()) +
                       " score the final coefficients; fewer than 2 of their reports so far";
    return document;
  }
  const double to_raw = std::pow(model.target_range.width() / 2.0, 2);
  const std::vector<double> scored = FinalCoefficients(trajectory);
  // A squared error lies in [0, 4]: the estimate and its interval are kept
  // there (which only moves them towards the truth); the unbiased mean, which
  // the noise can make negative, is given too.
  const double mse = std::clamp(estimate->mse, 0.0, kScoreBound);
  const double low = std::clamp(estimate->low, 0.0, kScoreBound), high = std::clamp(estimate->high, 0.0, kScoreBound);
  document.update({{"mse", mse},
                   {"mse_unbiased", estimate->mse},
                   {"standard_error", estimate->standard_error},
                   {"interval", {low, high}},
                   {"mse_raw", mse * to_raw},
                   {"standard_error_raw", estimate->standard_error * to_raw},
                   {"interval_raw", {low * to_raw, high * to_raw}},
                   {"scored", {{"normalised", scored}, {"raw", RawCoefficients(model, scored)}}}});
  document["note"] =
      "the mean squared error of the final coefficients' predictions (clamped to the target's range), on the " +
      std::to_string(reports) + " respondents of the held-out rounds, whom the model never trained on: each sent "
      "their own squared error, perturbed at the model's epsilon, so their mean (mse_unbiased) is unbiased; mse and "
      "the 95% interval (Student's t on the reports' spread) are kept in [0, 4], where a squared error lies, and are "
      "for the population they were drawn from. On the normalised scale (target in "
      "[-1, 1]) and in the target's units squared (_raw)";
  return document;
}

}  // namespace

nlohmann::json ModelResultToJson(const ModelDefinition& model, const ModelAggregate& aggregate, IntervalTarget target,
                                 const SeriesRequest& series) {
  const ModelTrajectory trajectory = ReplayModel(model, aggregate);
  const SeriesSelection selection = SelectRounds(trajectory.steps.size(), series);
  nlohmann::json rounds = RoundsJson(model, trajectory, selection);
  const long long current = aggregate.CurrentRound();
  const auto in_current = aggregate.rounds().count(current) ? aggregate.rounds().at(current).reports : 0;
  nlohmann::json document = {{"n", aggregate.n()},
                             {"target", model.target},
                             {"features", model.features},
                             {"names", Names(model)},
                             {"batch", aggregate.batch()},
                             {"chains", model.chains()},
                             {"rounds_completed", current - 1},
                             {"training_rounds", model.training_rounds()},
                             {"current_round", current},
                             {"max_rounds", model.max_rounds()},
                             {"complete", aggregate.Complete()},
                             {"current_round_reports", in_current},
                             {"rounds", rounds},
                             {"rounds_shown", selection.shown},
                             {"interval_for", ModelIntervalFor(target)},
                             {"coefficients", nullptr},
                             {"out_of_sample", nullptr},
                             {"warning", nullptr}};
  if (trajectory.steps.empty()) {
    document["warning"] = "no round is complete yet (" + std::to_string(in_current) + " of " +
                          std::to_string(aggregate.batch()) + " reports in round 1): no coefficients yet";
    return document;
  }
  document["coefficients"] = CoefficientsJson(model, trajectory);
  document["out_of_sample"] = OutOfSampleJson(model, aggregate, trajectory);
  if (aggregate.Complete()) {
    document["note"] = "the model is complete: its " + std::to_string(model.max_rounds()) +
                       " rounds (max_rounds) are done, and it takes no more reports (409 model_complete); these "
                       "coefficients are final";
  }
  const std::size_t fewest = FewestChainRounds(trajectory);
  if (fewest < 5) {
    document["warning"] = (model.chains() == 1 ? "the chain has " : "the chain with fewest rounds has ") +
                          std::to_string(fewest) + (fewest == 1 ? " round" : " rounds") +
                          ": too few for the model to have converged; watch the convergence chart";
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
    if (coefficients.is_object()) {
      row.estimate = coefficients.at("raw")[j];
      // Null until every chain has a round (or with one chain): see "uncertainty".
      if (coefficients.at("interval_raw").is_array()) {
        row.std_error = coefficients.at("standard_error_raw")[j];
        row.ci_low = coefficients.at("interval_raw")[j][0];
        row.ci_high = coefficients.at("interval_raw")[j][1];
      }
    }
    rows.push_back(std::move(row));
  }
  // The held-out rounds' prediction error, in the target's units squared (model_score.h).
  const nlohmann::json held_out = result.value("out_of_sample", nlohmann::json());
  if (held_out.is_object() && held_out.contains("mse_raw") && held_out.at("mse_raw").is_number()) {
    CsvRow row;
    row.label = "prediction (held out)";
    row.measure = "mean squared error";
    row.estimate = held_out.at("mse_raw");
    row.std_error = held_out.at("standard_error_raw");
    row.ci_low = held_out.at("interval_raw")[0];
    row.ci_high = held_out.at("interval_raw")[1];
    row.count = held_out.at("reports");
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string ModelSimulationText(const nlohmann::json& result) {
  std::string text = "  rounds complete: " + result.at("rounds_completed").dump() + " (batch " +
                     result.at("batch").dump() + ", at most " + result.at("max_rounds").dump() + " rounds" +
                     (result.at("complete").get<bool>() ? ": complete, later respondents sent no model report" : "") +
                     ")\n";
  const auto& coefficients = result.at("coefficients");
  const auto& names = result.at("names");
  const nlohmann::json truth = result.value("truth", nlohmann::json());
  if (coefficients.is_object()) {
    text += "  coefficient          truth   estimate  95% interval (" + coefficients.at("chains").dump() + " chains)\n";
    const auto& interval = coefficients.at("interval_raw");
    for (std::size_t j = 0; j < names.size(); ++j) {
      char line[200];
      const double true_value = truth.is_object() ? truth.at("coefficients_raw")[j].get<double>() : NAN;
      const double low = interval.is_array() ? interval[j][0].get<double>() : NAN;
      const double high = interval.is_array() ? interval[j][1].get<double>() : NAN;
      std::snprintf(line, sizeof line, "  %-16s %10.4g %10.4g  [%.4g, %.4g]\n", names[j].get<std::string>().c_str(),
                    true_value, coefficients.at("raw")[j].get<double>(), low, high);
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
  const nlohmann::json held_out = result.value("out_of_sample", nlohmann::json());
  if (held_out.is_object() && held_out.at("mse").is_number()) {
    char line[240];
    std::snprintf(line, sizeof line,
                  "  out-of-sample MSE (normalised target, %lld held-out respondents): %.4g, 95%% interval [%.4g, %.4g]\n",
                  held_out.at("reports").get<long long>(), held_out.at("mse").get<double>(),
                  held_out.at("interval")[0].get<double>(), held_out.at("interval")[1].get<double>());
    text += line;
  }
  if (result.at("warning").is_string()) text += "  warning: " + result.at("warning").get<std::string>() + "\n";
  return text;
}

}  // namespace deniable
