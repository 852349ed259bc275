// {"regress": "<randomised categorical question>", "on": ["<open question>", ...]}:
// the regression of a randomised answer on questions asked openly, rr's
// rrreg (Blair, Imai & Zhou 2015) for every categorical mechanism: logistic
// for two options, multinomial logit against the first option for more
// (channel_logit_fit.h), covariates dummy-coded or numeric plus an intercept
// (regression_design.h), predicted shares by profile (profile_predictions.h).
//
// An open categorical outcome gives the ordinary logistic regression (the
// identity channel): the non-private fit that simulations compare with.
//
// Respondents who skipped any question the model uses are dropped (the
// results say how many). The coefficients' Wald intervals come from the
// observed information: they are for the population's model (respondents
// drawn from it), whatever the "interval" option asks (a note says so when it
// asks for these respondents). Errors: the outcome is not a randomised (or
// open) categorical question, a covariate is not asked openly, fewer than
// kRespondentsPerParameter respondents per parameter. A fit without a finite
// maximum (a profile's share at 0 or 1) or that did not converge is a result
// with "converged": false, a warning and no intervals.
//
// The results: {"analysis", "model", "n", "dropped", "outcome": {"question",
// "levels", "reference"}, "coefficients": [{"outcome_level", "term",
// "estimate", "std_error", "ci_low", "ci_high"}], "predictions",
// "log_likelihood" (up to a constant: the channel's likelihoods are up to a
// factor per response), "converged", "iterations", "interval_for", "warning"}.
#pragma once

#include <memory>

#include <nlohmann/json.hpp>

#include "core/analysis/analysis.h"

namespace deniable {

// The least respondents per estimated parameter: randomisation leaves each
// report a fraction of a direct answer's information, so the usual ten events
// per variable is the least.
inline constexpr int kRespondentsPerParameter = 10;

// The outcome's categories at most (a multinomial model's size grows with them).
inline constexpr std::size_t kMaxOutcomeLevels = 12;

// `spec` has "regress"; errors name the field ("analysis.on[0]: ..."). An
// open numeric "regress" with a randomised yes/no question in "on" is the
// randomised answer as a predictor (rr_predictor.h).
Result<std::unique_ptr<Analysis>> ParseRrRegression(const Survey& survey, const nlohmann::json& spec);

}  // namespace deniable
