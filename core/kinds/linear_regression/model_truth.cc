#include "core/kinds/linear_regression/model_truth.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Dense>

#include "core/common/json_fields.h"
#include "core/common/number_text.h"
#include "core/common/validation.h"
#include "core/kinds/numeric/numeric_truth.h"
#include "core/kinds/linear_regression/model_gradient.h"
#include "core/kinds/linear_regression/model_results.h"

namespace deniable {
namespace {

double MeanSquaredError(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, const std::vector<double>& coefficients) {
  const Eigen::VectorXd beta = Eigen::Map<const Eigen::VectorXd>(coefficients.data(), static_cast<Eigen::Index>(coefficients.size()));
  return (x * beta - y).squaredNorm() / static_cast<double>(y.size());
}

// The records as the model sees them: normalised features (intercept first) and target.
struct Normalised {
  Eigen::MatrixXd x;
  Eigen::VectorXd y;
};

Normalised Normalise(const ModelDefinition& model, const std::vector<ModelRecord>& records) {
  const auto n = static_cast<Eigen::Index>(records.size());
  const auto d = static_cast<Eigen::Index>(model.components());
  Normalised data{Eigen::MatrixXd(n, d), Eigen::VectorXd(n)};
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto features = NormalisedFeatures(model, records[static_cast<std::size_t>(i)]);
    for (Eigen::Index j = 0; j < d; ++j) data.x(i, j) = features[static_cast<std::size_t>(j)];
    data.y(i) = NormalisedTarget(model, records[static_cast<std::size_t>(i)]);
  }
  return data;
}

std::vector<double> LeastSquares(const Normalised& data) {
  const Eigen::VectorXd fitted = data.x.colPivHouseholderQr().solve(data.y);
  return std::vector<double>(fitted.data(), fitted.data() + fitted.size());
}

// The prediction errors on the drawn records of the private coefficients, of
// least squares on those records, and of `truth` (normalised coefficients).
nlohmann::json PredictionErrors(const ModelDefinition& model, const std::vector<ModelRecord>& drawn,
                                const std::vector<double>& truth, const nlohmann::json& result) {
  const Normalised data = Normalise(model, drawn);
  const std::vector<double> fitted = LeastSquares(data);
  nlohmann::json errors = {{"mse_private", nullptr},
                           {"mse_least_squares", MeanSquaredError(data.x, data.y, fitted)},
                           {"mse_true", MeanSquaredError(data.x, data.y, truth)},
                           {"least_squares_raw", RawCoefficients(model, fitted)}};
  const auto& coefficients = result.at("coefficients");
  if (coefficients.is_object()) {
    errors["mse_private"] = MeanSquaredError(data.x, data.y, coefficients.at("normalised").get<std::vector<double>>());
  }
  return errors;
}

class ModelTruthSampler final : public TruthSampler {
 public:
  ModelTruthSampler(ModelDefinition model, std::vector<double> coefficients, double noise_sd)
      : model_(std::move(model)), coefficients_(std::move(coefficients)), noise_sd_(noise_sd) {}

  Result<nlohmann::json> Draw(RandomSource& random) override {
    ModelRecord record;
    double target = coefficients_[0];
    for (std::size_t j = 0; j < model_.features.size(); ++j) {
      const NumericRange range = model_.feature_ranges[j];
      record.features.push_back(range.low + range.width() * UniformUnit(random));
      target += coefficients_[j + 1] * record.features.back();
    }
    target += noise_sd_ * StandardNormal(random);
    record.target = std::clamp(target, model_.target_range.low, model_.target_range.high);
    records_.push_back(record);
    return nlohmann::json{{"features", record.features}, {"target", record.target}};
  }

  nlohmann::json Compare(const nlohmann::json& result) const override {
    nlohmann::json document = {{"truth", {{"coefficients_raw", coefficients_}, {"noise_sd", noise_sd_}}},
                               {"errors", nullptr},
                               {"advice", nullptr}};
    if (records_.empty()) return document;
    document["errors"] = PredictionErrors(model_, records_, NormalisedCoefficients(model_, coefficients_), result);
    return document;
  }

 private:
  ModelDefinition model_;
  std::vector<double> coefficients_;
  double noise_sd_;
  std::vector<ModelRecord> records_;
};

// A table's records (the CLI's CSV truth): each respondent is a row, the
// target and features its own. The truth is the population's model: least
// squares on the whole table, which the private coefficients estimate.
class ModelTableSampler final : public TruthSampler {
 public:
  ModelTableSampler(ModelDefinition model, std::vector<ModelRecord> table)
      : model_(std::move(model)), table_(std::move(table)), population_(LeastSquares(Normalise(model_, table_))) {}

  Result<nlohmann::json> Draw(RandomSource& random) override {
    return DrawRow(static_cast<std::size_t>(UniformBelow(random, table_.size())), random);
  }
  std::size_t rows() const override { return table_.size(); }
  Result<nlohmann::json> DrawRow(std::size_t row, RandomSource& /*random*/) override {
    drawn_.push_back(table_[row]);
    return nlohmann::json{{"features", table_[row].features}, {"target", table_[row].target}};
  }

  nlohmann::json Compare(const nlohmann::json& result) const override {
    nlohmann::json document = {{"truth", {{"coefficients_raw", RawCoefficients(model_, population_)},
                                          {"coefficients", population_},
                                          {"rows", table_.size()},
                                          {"note", "least squares on the whole table (the population the respondents "
                                                   "are drawn from), normalised and in the variables' units"}}},
                               {"errors", nullptr},
                               {"advice", nullptr}};
    if (drawn_.empty()) return document;
    document["errors"] = PredictionErrors(model_, drawn_, population_, result);
    return document;
  }

 private:
  ModelDefinition model_;
  std::vector<ModelRecord> table_;
  std::vector<double> population_;  // normalised
  std::vector<ModelRecord> drawn_;
};

// {"records": [[target, feature_1, ..., feature_d], ...]}, each inside its variable's range.
Result<std::vector<ModelRecord>> ReadRecords(const ModelDefinition& model, const nlohmann::json& records,
                                             const std::string& where) {
  const std::string path = JoinPath(where, "records");
  if (!records.is_array() || records.empty()) {
    return MakeError(path + ": must be a non-empty array of [target, feature, ...] rows");
  }
  std::vector<ModelRecord> table;
  table.reserve(records.size());
  for (std::size_t r = 0; r < records.size(); ++r) {
    const std::string row = path + "[" + std::to_string(r) + "]";
    const auto& values = records[r];
    if (!values.is_array() || values.size() != static_cast<std::size_t>(model.components())) {
      return MakeError(row + ": must hold " + std::to_string(model.components()) + " numbers (target, then features)");
    }
    ModelRecord record;
    for (std::size_t j = 0; j < values.size(); ++j) {
      const NumericRange range = j == 0 ? model.target_range : model.feature_ranges[j - 1];
      if (!values[j].is_number() || !(values[j].get<double>() >= range.low && values[j].get<double>() <= range.high)) {
        return MakeError(row + "[" + std::to_string(j) + "]: must be a number in its question's range [" +
                         FormatNumber(range.low) + ", " + FormatNumber(range.high) + "], but is " + values[j].dump());
      }
      (j == 0 ? record.target : record.features.emplace_back()) = values[j].get<double>();
    }
    table.push_back(std::move(record));
  }
  return table;
}

}  // namespace

Result<std::unique_ptr<TruthSampler>> ParseModelTruth(const ModelDefinition& model, const nlohmann::json& entry,
                                                      const std::string& where) {
  DENIABLE_TRY(RequireObject(entry, where));
  if (entry.contains("records")) {
    DENIABLE_TRY(RejectUnknownFields(entry, {"records"}, where));
    DENIABLE_ASSIGN_OR_RETURN(auto table, ReadRecords(model, entry.at("records"), where));
    return std::unique_ptr<TruthSampler>(std::make_unique<ModelTableSampler>(model, std::move(table)));
  }
  DENIABLE_TRY(RejectUnknownFields(entry, {"coefficients", "noise_sd"}, where));
  const auto coefficients = entry.find("coefficients");
  if (coefficients == entry.end() || !coefficients->is_array() ||
      coefficients->size() != static_cast<std::size_t>(model.components())) {
    return MakeError(JoinPath(where, "coefficients") + ": must be " + std::to_string(model.components()) +
                     " numbers (intercept first, in the variables' units)");
  }
  std::vector<double> values;
  for (const auto& value : *coefficients) {
    if (!value.is_number() || !std::isfinite(value.get<double>())) {
      return MakeError(JoinPath(where, "coefficients") + ": must be finite numbers, but has " + value.dump());
    }
    values.push_back(value.get<double>());
  }
  double noise_sd = 0.0;
  if (entry.contains("noise_sd")) {
    DENIABLE_ASSIGN_OR_RETURN(auto read, ReadFiniteNumber(entry, "noise_sd", where));
    if (read < 0.0) return MakeError(JoinPath(where, "noise_sd") + ": must be at least 0");
    noise_sd = read;
  }
  return std::unique_ptr<TruthSampler>(std::make_unique<ModelTruthSampler>(model, std::move(values), noise_sd));
}

}  // namespace deniable

namespace deniable {
namespace {

// The header index of `column` (a name or a 0-based index).
Result<std::size_t> ColumnIndex(const std::vector<std::string>& header, const nlohmann::json& column,
                                const std::string& where) {
  if (column.is_number_integer() && column.get<long long>() >= 0 &&
      static_cast<std::size_t>(column.get<long long>()) < header.size()) {
    return static_cast<std::size_t>(column.get<long long>());
  }
  if (column.is_string()) {
    const auto found = std::find(header.begin(), header.end(), column.get<std::string>());
    if (found != header.end()) return static_cast<std::size_t>(found - header.begin());
  }
  return MakeError(where + ": no column " + column.dump() + " in the header");
}

}  // namespace

Result<nlohmann::json> ModelTruthFromTable(const ModelDefinition& model, const std::vector<std::vector<std::string>>& table,
                                           const nlohmann::json& entry, const std::string& where) {
  DENIABLE_TRY(RejectUnknownFields(entry, {"csv", "columns", "question_columns", "skip_rate"}, where));
  if (table.empty()) return MakeError(where + ".csv: no header row");
  const nlohmann::json columns = entry.value("columns", nlohmann::json::object());
  const nlohmann::json defaults = entry.value("question_columns", nlohmann::json::object());
  if (!columns.is_object()) return MakeError(where + ".columns: must map the model's variables (question ids) to columns");
  std::vector<std::string> variables{model.target};
  variables.insert(variables.end(), model.features.begin(), model.features.end());
  for (const auto& item : columns.items()) {
    if (std::find(variables.begin(), variables.end(), item.key()) == variables.end()) {
      return MakeError(where + ".columns." + item.key() + ": not a variable of the model");
    }
  }
  // Each variable's column: named here, else the one its own question's truth reads, else its question id.
  std::vector<std::size_t> column_of;
  for (const std::string& variable : variables) {
    const nlohmann::json column = columns.contains(variable)    ? columns.at(variable)
                                  : defaults.contains(variable) ? defaults.at(variable)
                                                                : nlohmann::json(variable);
    DENIABLE_ASSIGN_OR_RETURN(auto index, ColumnIndex(table.front(), column, where + ".columns." + variable));
    column_of.push_back(index);
  }
  auto records = nlohmann::json::array();
  for (std::size_t r = 1; r < table.size(); ++r) {
    if (table[r].empty()) continue;  // a blank line
    auto record = nlohmann::json::array();
    for (std::size_t v = 0; v < variables.size(); ++v) {
      const std::string cell = column_of[v] < table[r].size() ? table[r][column_of[v]] : "";
      const auto value = ParseFiniteNumber(cell);
      if (!value) {
        return MakeError("row " + std::to_string(r + 1) + ", " + variables[v] + ": not a number: \"" + cell + "\"");
      }
      record.push_back(*value);
    }
    records.push_back(std::move(record));
  }
  if (records.empty()) return MakeError(where + ".csv: no data rows below the header");
  nlohmann::json resolved = {{"records", std::move(records)}};
  if (entry.contains("skip_rate")) resolved["skip_rate"] = entry.at("skip_rate");
  return resolved;
}

}  // namespace deniable
