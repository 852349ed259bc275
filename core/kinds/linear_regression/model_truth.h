// A simulated population for a model: records drawn by the model itself
// (its features uniform over their questions' ranges, the target
// b_0 + sum b_j x_j + Normal(0, noise_sd), clipped into its range), so that
// the truth is known. Truth entry: {"coefficients": [b_0, b_1..b_d] in the
// variables' units, "noise_sd": s}. Or real records, a table's rows:
// {"records": [[target, x_1..x_d], ...]} (the CLI's CSV truth; the rows are
// shared with the variables' questions, core/survey/simulation.h), whose
// truth is the population's model: least squares on the whole table.
// Compare gives the prediction MSE on the normalised target of the private
// coefficients, of non-private least squares on the same records, and of the
// true (or the population's) coefficients.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/kinds/linear_regression/model_definition.h"
#include "core/survey/question_kind.h"

namespace deniable {

Result<std::unique_ptr<TruthSampler>> ParseModelTruth(const ModelDefinition& model, const nlohmann::json& entry,
                                                      const std::string& where);

// {"csv": FILE, "columns": {"<variable's question id>": header or 0-based index}}
// from the file's table (header first): each variable's column defaults to the
// one its own question's truth reads ("question_columns", question_kind.h),
// else the column named as the question. Returns {"records": [...]}; values
// are checked against the ranges when parsed.
Result<nlohmann::json> ModelTruthFromTable(const ModelDefinition& model, const std::vector<std::vector<std::string>>& table,
                                           const nlohmann::json& entry, const std::string& where);

}  // namespace deniable
