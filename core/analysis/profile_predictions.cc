#include "core/analysis/profile_predictions.h"

#include "core/kinds/open/open_privacy.h"

#include <cmath>

#include "core/frequency/frequency_estimator.h"

namespace deniable {
namespace {

// The categorical covariates' levels with respondents, one list per
// covariate (a numeric covariate gets {0}: it takes its mean).
std::vector<std::vector<int>> ProfileLevels(const RegressionDesign& design) {
  std::vector<std::vector<int>> levels;
  for (const CovariateTerms& terms : design.covariates) {
    std::vector<int> seen;
    for (std::size_t level = 0; level < terms.level_column.size(); ++level) {
      if (terms.level_column[level] != kAbsent) seen.push_back(static_cast<int>(level));
    }
    if (terms.column >= 0) seen = {0};
    levels.push_back(seen);
  }
  return levels;
}

std::int64_t CountProfile(const RegressionDesign& design, const Eigen::MatrixXd& values, const std::vector<int>& profile) {
  std::int64_t count = 0;
  for (Eigen::Index i = 0; i < values.rows(); ++i) {
    bool match = true;
    for (std::size_t j = 0; j < profile.size() && match; ++j) {
      match = design.covariates[j].column >= 0 || values(i, static_cast<Eigen::Index>(j)) == profile[j];
    }
    count += match;
  }
  return count;
}

nlohmann::json Share(const Eigen::RowVectorXd& x, const ChannelLogitFit& fit, const Eigen::VectorXd& shares, int c,
                     const std::string& level) {
  const double pi = shares(c);
  nlohmann::json share = {{"level", level}, {"estimate", pi}, {"std_error", nullptr}, {"ci_low", nullptr},
                          {"ci_high", nullptr}};
  if (fit.covariance.size() == 0 || pi <= 0 || pi >= 1) return share;
  const Eigen::Index p = x.size(), m = shares.size() - 1;
  Eigen::VectorXd gradient(p * m);
  for (Eigen::Index d = 0; d < m; ++d) {
    const double dpi = pi * ((c == d + 1 ? 1.0 : 0.0) - shares(d + 1));
    gradient.segment(d * p, p) = dpi * x.transpose();
  }
  const double se = std::sqrt(std::max(0.0, gradient.dot(fit.covariance * gradient)));
  const double logit = std::log(pi / (1 - pi)), half = kZ95 * se / (pi * (1 - pi));
  share["std_error"] = se;
  share["ci_low"] = 1 / (1 + std::exp(-(logit - half)));
  share["ci_high"] = 1 / (1 + std::exp(-(logit + half)));
  return share;
}

nlohmann::json Prediction(const RegressionDesign& design, const std::vector<RegressionCovariate>& covariates,
                          const Eigen::MatrixXd& values, const ChannelLogitFit& fit,
                          const std::vector<std::string>& outcome_levels, const std::vector<int>& profile) {
  nlohmann::json described = nlohmann::json::object();
  for (std::size_t j = 0; j < covariates.size(); ++j) {
    if (design.covariates[j].column >= 0) {
      described[covariates[j].id] = design.covariates[j].mean;
    } else {
      described[covariates[j].id] = covariates[j].levels[static_cast<std::size_t>(profile[j])];
    }
  }
  const Eigen::RowVectorXd x = ProfileRow(design, profile);
  const Eigen::VectorXd shares = CategoryShares(x, fit.coefficients);
  auto list = nlohmann::json::array();
  for (int c = 0; c < shares.size(); ++c) list.push_back(Share(x, fit, shares, c, outcome_levels[c]));
  return {{"profile", described}, {"n", CountProfile(design, values, profile)}, {"shares", list}};
}

}  // namespace

nlohmann::json ProfilePredictions(const RegressionDesign& design, const std::vector<RegressionCovariate>& covariates,
                                  const Eigen::MatrixXd& values, const ChannelLogitFit& fit,
                                  const std::vector<std::string>& outcome_levels, std::string& note) {
  const std::vector<std::vector<int>> levels = ProfileLevels(design);
  std::size_t profiles = 1;
  for (const auto& list : levels) profiles *= list.size();
  auto predictions = nlohmann::json::array();
  if (profiles > kMaxProfiles) {
    note = std::to_string(profiles) + " covariate profiles: too many to list (at most " +
           std::to_string(kMaxProfiles) + ")";
    return predictions;
  }
  // Every combination, the last covariate varying fastest.
  std::vector<std::size_t> digit(levels.size(), 0);
  for (std::size_t index = 0; index < profiles; ++index) {
    std::vector<int> profile(levels.size());
    for (std::size_t j = 0; j < levels.size(); ++j) profile[j] = levels[j][digit[j]];
    predictions.push_back(Prediction(design, covariates, values, fit, outcome_levels, profile));
    for (std::size_t j = levels.size(); j-- > 0;) {
      if (++digit[j] < levels[j].size()) break;
      digit[j] = 0;
    }
  }
  // A profile's count is a count of a combination of open answers: 1 to 4 are not published, nor the next
  // smallest where the total minus the others would give one away (open_privacy.h). The shares are the model's.
  std::vector<std::int64_t> counts;
  for (const auto& prediction : predictions) counts.push_back(prediction.at("n").get<std::int64_t>());
  const std::vector<bool> hidden = HiddenCounts(counts);
  for (std::size_t p = 0; p < predictions.size(); ++p) {
    if (hidden[p]) predictions[p]["n"] = counts[p] > 0 && counts[p] < kSmallCellLimit ? "<5" : "hidden";
  }
  return predictions;
}

}  // namespace deniable
