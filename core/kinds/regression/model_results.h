// A model's results document: its rounds, the coefficients after each (the
// convergence chart), and the final coefficients, on the normalised scale and
// in the variables' units, with an honest statement of their uncertainty.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "core/kinds/regression/model_definition.h"
#include "core/kinds/regression/model_rounds.h"
#include "core/survey/question_kind.h"

namespace deniable {

// Normalised coefficients (intercept first) in the variables' raw units:
// y = a_y + (w_y/2)(1 + b_0 - sum b_j) - sum s_j a_j + sum s_j x_j, s_j = b_j w_y / w_j.
std::vector<double> RawCoefficients(const ModelDefinition& model, const std::vector<double>& normalised);
// The inverse (for simulation truths given in raw units).
std::vector<double> NormalisedCoefficients(const ModelDefinition& model, const std::vector<double>& raw);

// The final coefficients: the average of the iterates over the last half of
// the complete rounds (Polyak-Ruppert averaging; the last iterate when one
// round is complete); empty before any round completes.
std::vector<double> FinalCoefficients(const ModelTrajectory& trajectory);

nlohmann::json ModelResultToJson(const ModelDefinition& model, const ModelAggregate& aggregate);
std::vector<CsvRow> ModelCsvRows(const nlohmann::json& result);
std::string ModelSimulationText(const nlohmann::json& result);

}  // namespace deniable
