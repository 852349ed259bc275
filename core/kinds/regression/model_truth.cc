#include "core/kinds/regression/model_truth.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Dense>

#include "core/common/json_fields.h"
#include "core/numeric/numeric_truth.h"
#include "core/kinds/regression/model_gradient.h"
#include "core/kinds/regression/model_results.h"

namespace deniable {
namespace {

double MeanSquaredError(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, const std::vector<double>& coefficients) {
  const Eigen::VectorXd beta = Eigen::Map<const Eigen::VectorXd>(coefficients.data(), static_cast<Eigen::Index>(coefficients.size()));
  return (x * beta - y).squaredNorm() / static_cast<double>(y.size());
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
    const auto n = static_cast<Eigen::Index>(records_.size());
    const auto d = static_cast<Eigen::Index>(model_.components());
    Eigen::MatrixXd x(n, d);
    Eigen::VectorXd y(n);
    for (Eigen::Index i = 0; i < n; ++i) {
      const auto features = NormalisedFeatures(model_, records_[static_cast<std::size_t>(i)]);
      for (Eigen::Index j = 0; j < d; ++j) x(i, j) = features[static_cast<std::size_t>(j)];
      y(i) = NormalisedTarget(model_, records_[static_cast<std::size_t>(i)]);
    }
    const Eigen::VectorXd least_squares = x.colPivHouseholderQr().solve(y);
    const std::vector<double> fitted(least_squares.data(), least_squares.data() + d);
    nlohmann::json errors = {{"mse_private", nullptr},
                             {"mse_least_squares", MeanSquaredError(x, y, fitted)},
                             {"mse_true", MeanSquaredError(x, y, NormalisedCoefficients(model_, coefficients_))},
                             {"least_squares_raw", RawCoefficients(model_, fitted)}};
    const auto& coefficients = result.at("coefficients");
    if (coefficients.is_object()) {
      errors["mse_private"] = MeanSquaredError(x, y, coefficients.at("normalised").get<std::vector<double>>());
    }
    document["errors"] = errors;
    return document;
  }

 private:
  ModelDefinition model_;
  std::vector<double> coefficients_;
  double noise_sd_;
  std::vector<ModelRecord> records_;
};

}  // namespace

Result<std::unique_ptr<TruthSampler>> ParseModelTruth(const ModelDefinition& model, const nlohmann::json& entry,
                                                      const std::string& where) {
  DENIABLE_TRY(RequireObject(entry, where));
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
    auto read = ReadFiniteNumber(entry, "noise_sd", where);
    if (!read) return MakeError(read.error());
    if (*read < 0.0) return MakeError(JoinPath(where, "noise_sd") + ": must be at least 0");
    noise_sd = *read;
  }
  return std::unique_ptr<TruthSampler>(std::make_unique<ModelTruthSampler>(model, std::move(values), noise_sd));
}

}  // namespace deniable
