// A linear regression trained across rounds of respondents (seed 003, §5:
// mini-batch SGD on locally private gradients), declared as a question:
//   {"id": "model", "type": "linear_regression", "text": "...",
//    "target": "<numeric question id>", "features": ["<numeric id>", ...],
//    "epsilon": e, "mechanism": "piecewise" | "duchi", "ridge": 1e-4,
//    "batch": G, "learning_rate": 1, "clip": 1, "chains": K, "max_rounds": R,
//    "holdout": h}
// The decisions the paper leaves open (digest §6.14-6.16), made here:
//   - variables: target and features are earlier numeric questions; each is
//     normalised to [-1, 1] with its question's range (the paper's scaling);
//     the model is y = b0 + sum_j b_j x_j on that scale, intercept first;
//   - gradient: 2 (b . x~ - y) x~ of the squared error, computed on the
//     device; the ridge term lambda b (intercept excluded) is added by the
//     server, which knows b, at no privacy cost, so it is not clipped;
//   - clipping: each component to [-clip, clip] (paper: 1);
//   - budget split: ONE component j, uniform over the d + 1 (independent of
//     the answers, so j reveals nothing), perturbed with the whole epsilon by
//     Piecewise (or Duchi) on [-1, 1]; the server averages each component's
//     reports: every respondent spends exactly epsilon on the model;
//   - rounds: a respondent answers against the current round's coefficients
//     and contributes to that round only; a round closes after `batch`
//     reports (default: the smallest batch that makes each component's
//     estimate's standard error at most a quarter of the clip bound);
//   - chains (not in the paper): the rounds are dealt to K independent
//     chains in turn (round r trains chain (r - 1) mod K, model_chains.h),
//     each a full SGD run of its own from zeros on its own respondents; the
//     published coefficients are the chains' average and their disagreement
//     is the error (one run's coefficients can differ by more than the
//     coefficient between two arrival orders of the same respondents; the
//     spread of one run's last iterates does not show that). Default 8;
//     with 1 chain there is no interval;
//   - rounds are bounded (not in the paper): after `max_rounds` complete
//     rounds (default 1000, at most 100,000) the model is complete and takes
//     no more gradients, so what one survey's rounds cost the server (their
//     sums, the replay behind every state and result) is bounded whatever the
//     batch: at batch 1 one anonymous client made 100,000 rounds in about
//     11 minutes. A report then leaves the model's part out (null);
//   - out-of-sample error (not in the paper): a gradient does not identify
//     the squared error (its intercept component is 2 r, the residual's
//     sign and size, never r^2), so no report of a training round estimates
//     the prediction error. With "holdout" h > 0 (a share, at most 0.5;
//     default 0) the last ceil(h R) of the R rounds train nothing: their
//     respondents score the final coefficients (the chains' average after
//     the training rounds, which no longer move) by sending
//     (clamp(b . x~, -1, 1) - y~)^2 in [0, 4], perturbed on [-1, 1] at the
//     model's epsilon (model_score.h): unbiased for the clamped prediction's
//     mean squared error on respondents the model never trained on;
//   - learning rate gamma_t = learning_rate / sqrt(t), t the chain's own
//     step (paper: 1/sqrt(t)); initial coefficients 0.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/result.h"
#include "core/numeric/numeric_mechanism.h"
#include "core/survey/question_kind.h"

namespace deniable {

inline constexpr int kMaxModelFeatures = 32;
inline constexpr int kDefaultModelChains = 8;
inline constexpr int kMaxModelChains = 64;
inline constexpr long long kDefaultModelMaxRounds = 1000;
inline constexpr long long kMaxModelRounds = 100000;

struct ModelDefinition {
  std::string target;
  std::vector<std::string> features;
  double epsilon = 1.0;
  std::string mechanism = "piecewise";
  double ridge = 1e-4;
  std::optional<long long> batch;  // as declared; batch() gives the one used
  double learning_rate = 1.0;
  double clip = 1.0;
  std::optional<int> declared_chains;  // as declared; chains() gives the one used
  std::optional<long long> declared_max_rounds;  // as declared; max_rounds() gives the one used
  double holdout = 0.0;  // the share of the rounds, at the end, that score rather than train
  // Filled by Link: the variables' answer ranges.
  NumericRange target_range{-1.0, 1.0};
  std::vector<NumericRange> feature_ranges;

  int components() const { return static_cast<int>(features.size()) + 1; }
  int chains() const { return declared_chains.value_or(kDefaultModelChains); }
  long long max_rounds() const { return declared_max_rounds.value_or(kDefaultModelMaxRounds); }
  // The held-out rounds (the last ones) and the training rounds before them.
  long long holdout_rounds() const;
  long long training_rounds() const { return max_rounds() - holdout_rounds(); }
  // Whether a round is held out (none without "holdout": a model stored before
  // max_rounds with more rounds than it keeps training on them all).
  bool Scores(long long round) const { return holdout > 0.0 && round > training_rounds(); }
  nlohmann::json ToJson() const;  // the kind's fields of the canonical definition
};

// Reads the kind's fields strictly (ranges are linked later).
Result<ModelDefinition> ParseModelDefinition(const nlohmann::json& question, const std::string& where);

// The mechanism one gradient component is perturbed with, on [-1, 1].
Result<std::shared_ptr<const NumericMechanism>> GradientMechanism(const ModelDefinition& model);

// The batch used: the declared one, or the default rule above.
long long ModelBatch(const ModelDefinition& model, const NumericMechanism& mechanism);

}  // namespace deniable
