#include "core/kinds/linear_regression/model_advice.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/kinds/linear_regression/model_results.h"
#include "core/common/student_t.h"
#include "core/numeric/mean_advice.h"
#include "core/survey/interval_target.h"

namespace deniable {
namespace {

constexpr double kAdviceZ95 = 1.959963984540054;

// The rounds the results average: each chain's last half of its complete rounds (ChainEstimates).
long long AveragedRounds(long long rounds, int chains) {
  long long total = 0;
  for (int chain = 0; chain < chains; ++chain) {
    const long long own = rounds / chains + (chain < rounds % chains ? 1 : 0);
    total += own - own / 2;
  }
  return total;
}

// d raw / d normalised: RawCoefficients is affine in the normalised coefficients.
std::vector<std::vector<double>> RawJacobian(const ModelDefinition& model) {
  const auto components = static_cast<std::size_t>(model.components());
  const std::vector<double> origin = RawCoefficients(model, std::vector<double>(components, 0.0));
  std::vector<std::vector<double>> jacobian(components, std::vector<double>(components, 0.0));
  for (std::size_t i = 0; i < components; ++i) {
    std::vector<double> unit(components, 0.0);
    unit[i] = 1.0;
    const std::vector<double> moved = RawCoefficients(model, unit);
    for (std::size_t k = 0; k < components; ++k) jacobian[k][i] = moved[k] - origin[k];
  }
  return jacobian;
}

}  // namespace

nlohmann::json ModelRoundsAdvice(const ModelDefinition& model, const NumericMechanism& mechanism, long long batch,
                                 std::int64_t respondents) {
  const int components = model.components();
  const int chains = model.chains();
  const long long rounds = respondents / batch;
  const long long averaged = AveragedRounds(rounds, chains);
  const bool interval = chains >= 2 && rounds >= chains;
  const double t = chains >= 2 ? StudentTTwoSidedQuantile(0.95, chains - 1) : kAdviceZ95;
  const double least = LeastMeanVariance(mechanism).value_or(0.0);
  const double most = WorstMeanVariance(mechanism).value_or(0.0);
  // One report's variance is at most the noise's largest plus the clipped gradient's square (<= 1, clip scale).
  const double gradient_se = model.clip * std::sqrt(components * (most + 1.0) / static_cast<double>(batch));
  nlohmann::json coefficients = nlohmann::json::array();
  std::vector<double> variance(static_cast<std::size_t>(components), 0.0);
  for (int j = 0; j < components; ++j) {
    const double hessian = j == 0 ? 2.0 : 2.0 / 3.0 + model.ridge;
    const double noise = components * least * model.clip * model.clip / static_cast<double>(batch);
    variance[static_cast<std::size_t>(j)] = averaged > 0 ? noise / (hessian * hessian * averaged) : NAN;
  }
  const bool linked = model.feature_ranges.size() == model.features.size();
  const auto jacobian = linked ? RawJacobian(model) : std::vector<std::vector<double>>{};
  for (int k = 0; k < components; ++k) {
    nlohmann::json row = {{"name", k == 0 ? std::string("intercept") : model.features[static_cast<std::size_t>(k - 1)]},
                          {"std_error", nullptr}, {"ci_half_width", nullptr},
                          {"std_error_units", nullptr}, {"ci_half_width_units", nullptr}};
    if (averaged > 0) {
      const double se = std::sqrt(variance[static_cast<std::size_t>(k)]);
      row["std_error"] = se;
      row["ci_half_width"] = t * se;
      if (linked) {
        double raw = 0.0;  // the normalised coefficients' covariance (above) is diagonal
        for (int i = 0; i < components; ++i) {
          const double slope = jacobian[static_cast<std::size_t>(k)][static_cast<std::size_t>(i)];
          raw += slope * slope * variance[static_cast<std::size_t>(i)];
        }
        row["std_error_units"] = std::sqrt(raw);
        row["ci_half_width_units"] = t * std::sqrt(raw);
      }
    }
    coefficients.push_back(row);
  }
  return {{"kind", "model_rounds"},
          {"respondents", respondents},
          {"epsilon", model.epsilon},
          {"mechanism", model.mechanism},
          {"batch", batch},
          {"chains", chains},
          {"components", components},
          {"rounds", rounds},
          {"rounds_per_chain", rounds / chains},
          {"averaged_rounds", averaged},
          {"respondents_per_chain_step", batch * chains},
          {"interval", interval},
          {"t_quantile", t},
          {"gradient_ci_half_width", kAdviceZ95 * gradient_se},
          {"coefficients", coefficients},
          {"interval_for", IntervalForJson(IntervalTarget::kPopulation)},
          {"assumption", "features spread evenly and independently over their ranges"},
          {"note", "rough, not an interval: averaged SGD's error from the gradient noise; on simulated data the "
                   "real spread was 0.7 to 1.8 times this, and clipping bias adds to it. The results' interval (the "
                   "chains' disagreement) is what to read after collection"}};
}

}  // namespace deniable
