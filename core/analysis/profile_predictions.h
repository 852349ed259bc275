// Predicted prevalence by covariate profile (rr's predict.rrreg, for each
// profile rather than each respondent): every combination of the categorical
// covariates' levels with respondents, numeric covariates at their mean, and
// per profile the fitted share of each outcome level with a delta-method 95%
// interval. The interval is built on the logit scale and mapped back, so it
// stays in [0, 1] and always holds its estimate:
//     se(pi_c) = sqrt(g' V g),  g = d pi_c / d theta = x pi_c (e_c - pi),
//     [expit(logit pi_c -+ 1.96 se(pi_c) / (pi_c (1 - pi_c)))].
#pragma once

#include <string>
#include <vector>

#include <Eigen/Dense>
#include <nlohmann/json.hpp>

#include "core/analysis/channel_logit_fit.h"
#include "core/analysis/regression_design.h"

namespace deniable {

// More profiles than this are not listed (the note says so).
inline constexpr std::size_t kMaxProfiles = 64;

// [{"profile": {"<id>": "<level>" | <mean>}, "n": respondents with those
//   levels, "shares": [{"level", "estimate", "std_error", "ci_low", "ci_high"}]}]
// (std_error and the interval null when the fit has no covariance). `values`
// as for BuildRegressionDesign; `note` gets a sentence when profiles are left out.
nlohmann::json ProfilePredictions(const RegressionDesign& design, const std::vector<RegressionCovariate>& covariates,
                                  const Eigen::MatrixXd& values, const ChannelLogitFit& fit,
                                  const std::vector<std::string>& outcome_levels, std::string& note);

}  // namespace deniable
