// A model's results document: its rounds, the coefficients after each (the
// convergence chart), and the final coefficients, on the normalised scale and
// in the variables' units, with a 95% interval from the chains' disagreement.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "core/kinds/linear_regression/model_definition.h"
#include "core/kinds/linear_regression/model_rounds.h"
#include "core/kinds/linear_regression/model_series.h"
#include "core/survey/interval_target.h"
#include "core/survey/question_kind.h"

namespace deniable {

// Normalised coefficients (intercept first) in the variables' raw units:
// y = a_y + (w_y/2)(1 + b_0 - sum b_j) - sum s_j a_j + sum s_j x_j, s_j = b_j w_y / w_j.
std::vector<double> RawCoefficients(const ModelDefinition& model, const std::vector<double>& normalised);
// The inverse (for simulation truths given in raw units).
std::vector<double> NormalisedCoefficients(const ModelDefinition& model, const std::vector<double>& raw);

// ChainEstimates and FinalCoefficients: model_rounds.h (the state of a held-out round is the final coefficients).

// The mean of K independent, identically distributed estimates (K >= 2) and
// its 95% interval mean +- t(K - 1) sd / sqrt(K), per coefficient: the
// interval covers the estimates' expectation at 95% when they are roughly
// normal. Given the chains' coefficients in the variables' units it needs no
// delta method: the raw intercept depends on every normalised coefficient,
// and its spread over the chains carries their covariance.
struct MeanInterval {
  std::vector<double> mean, standard_error, low, high;
  double t_quantile = 0.0;
};
MeanInterval ChainMeanInterval(const std::vector<std::vector<double>>& estimates);

// `target`: the interval asked for; the model gives the population's (see
// "interval_for"), with a note when the respondents' was asked for.
// `series`: which rounds to list (model_series.h: by default a sample for the chart).
nlohmann::json ModelResultToJson(const ModelDefinition& model, const ModelAggregate& aggregate,
                                 IntervalTarget target = IntervalTarget::kPopulation, const SeriesRequest& series = {});
std::vector<CsvRow> ModelCsvRows(const nlohmann::json& result);
std::string ModelSimulationText(const nlohmann::json& result);

}  // namespace deniable
