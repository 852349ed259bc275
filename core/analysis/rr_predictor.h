// {"regress": "<open numeric question>", "on": ["<randomised yes/no question>",
// "<open question>", ...]}: a randomised answer as a predictor of an open
// numeric outcome (rr's rrreg.predictor, with a linear outcome model;
// rr_predictor_fit.h). The first question in "on" is the predictor, a
// randomised question with two options (an open one gives the non-private
// fit: the truth of simulations); the others are open covariates. The
// predictor's second option's effect on the outcome is estimated against its
// first, with the covariates held fixed; the latent true answer is modelled
// as a logistic regression on the covariates (the "answer" equation), as in rr.
//
// The results: {"analysis", "model": "linear with a randomised predictor",
// "n", "dropped", "outcome": {"question"}, "predictor": {"question",
// "levels"}, "coefficients": [{"equation": "outcome" | "answer", "term",
// "estimate", "std_error", "ci_low", "ci_high"}] (the outcome equation's
// terms: "(intercept)", "<predictor>=<second option>", the covariates; the
// answer equation's: "(intercept)", the covariates), "sigma" (the residual SD,
// its interval from log sigma's), "log_likelihood", "converged", "iterations",
// "interval_for" (the population's model), "warning"}.
#pragma once

#include <memory>

#include <nlohmann/json.hpp>

#include "core/analysis/analysis.h"

namespace deniable {

// `spec["regress"]` names an open numeric question (ParseRrRegression sends it here).
Result<std::unique_ptr<Analysis>> ParseRrPredictor(const Survey& survey, const nlohmann::json& spec);

}  // namespace deniable
