// The model's mergeable sufficient statistics and its training replay.
//
// Per round: each gradient component's count and sum of reported values.
// The coefficients are a function of these (ReplayModel): each round trains
// one of the model's chains (model_chains.h); a chain's coefficients after a
// round are its previous ones minus gamma_t (the round's averaged gradient +
// ridge), t the chain's step, so merging per-round sums in any order gives the same
// model, the served state, the results and a restart (which replays the
// stored reports) always agree. A round is complete at `batch` reports; the
// current round is the first incomplete one. A report that raced the
// round's last one is counted in its round (so a round may hold a few more
// than `batch`); the server refuses any report for an earlier or later round.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "core/kinds/linear_regression/model_chains.h"
#include "core/kinds/linear_regression/model_definition.h"
#include "core/survey/question_kind.h"

namespace deniable {

// A decoded gradient report: the round, the component, the reported value in
// the mechanism's output range (on the clip scale / clip). `sent` false: the
// report's null for a complete model (no gradient: nothing counted).
struct GradientResponse final : KindResponse {
  GradientResponse(long long r, int c, double v) : round(r), component(c), value(v) {}
  static GradientResponse NotSent() {
    GradientResponse none(0, 0, 0.0);
    none.sent = false;
    return none;
  }
  static GradientResponse Score(long long r, double v) {
    GradientResponse score(r, 0, v);
    score.score = true;
    return score;
  }
  long long round;
  int component;
  double value;
  bool sent = true;
  bool score = false;  // a held-out round's squared error (model_score.h), not a gradient component
};

// A held-out round's reports are counted in count[0] and sum[0], with
// their sum of squares in `squares` (the estimate's spread: model_score.h).
struct RoundSums {
  std::vector<std::int64_t> count;
  std::vector<double> sum;
  std::int64_t reports = 0;
  double squares = 0.0;
};

// ModelAggregate also keeps the public state as rounds close (each chain's
// coefficients after its last complete round: one StepModel per round
// closed, O(components)), so serving the state never replays the rounds:
// replaying 100,000 rounds under the survey's lock at every GET /state
// stalled report intake (10 anonymous loops delayed other surveys' reports
// by 0.9 s). Only a report counted in a round that already closed (replayed
// from a database written before rounds took exactly their batch) or a Merge
// makes it replay, once.
class ModelAggregate final : public KindAggregate {
 public:
  ModelAggregate(std::shared_ptr<const ModelDefinition> model, long long batch);
  std::string_view type() const override;
  void Add(const KindResponse& response) override;
  Status Merge(const KindAggregate& other) override;
  std::unique_ptr<KindAggregate> Clone() const override { return std::make_unique<ModelAggregate>(*this); }
  nlohmann::json StatisticsToJson() const override;  // model_aggregate_format.cc
  Status StatisticsFromJson(const nlohmann::json& statistics) override;
  std::int64_t n() const override { return n_; }
  // A gradient only for the current round while the model is not complete;
  // null (not sent) only once it is complete.
  Status Admits(const KindResponse& response) const override;
  bool Complete() const override { return current_ > model_->max_rounds(); }

  const std::map<long long, RoundSums>& rounds() const { return rounds_; }
  long long batch() const { return batch_; }
  // The first round with fewer than `batch` reports (kept up to date: O(1)).
  long long CurrentRound() const { return current_; }
  // The current round's chain's coefficients (normalised): ReplayModel's
  // `current`, kept up to date; in a held-out round, the final coefficients.
  const std::vector<double>& CurrentCoefficients() const;
  // The final coefficients the held-out rounds score (empty before them).
  const std::vector<double>& ScoredCoefficients() const { return scored_; }

 private:
  // Moves current_ past complete rounds, stepping each one's chain (amortised O(components) per report).
  void AdvanceCurrentRound();
  // Replays every complete round into chains_ (after a change to a closed round).
  void Refold();
  // scored_ from the training rounds, once they are all complete.
  void ScoreFinal();

  std::shared_ptr<const ModelDefinition> model_;
  int components_;
  long long batch_;
  std::int64_t n_ = 0;
  std::map<long long, RoundSums> rounds_;
  long long current_ = 1;
  std::vector<std::vector<double>> chains_;  // each chain's coefficients after its last complete round
  std::vector<double> scored_;               // FinalCoefficients once every training round is complete
};

struct ModelStep {
  long long round;                    // the round whose gradient made this step
  ChainPlace place;                   // its chain, and the step within it
  std::int64_t reports;
  std::vector<double> gradient;       // averaged (clip scale), ridge excluded
  std::vector<double> coefficients;   // the chain's, after the step
};

struct ModelTrajectory {
  std::vector<double> initial;        // every chain's starting coefficients (zeros)
  std::vector<ModelStep> steps;       // one per complete round, in order
  std::vector<std::vector<double>> chains;  // each chain's coefficients after its last complete round
  std::vector<double> current;        // the current round's (its chain's) coefficients
};

// One chain's estimate: the average of its iterates over the last half of
// its complete rounds (Polyak-Ruppert averaging; the last iterate when one
// round is complete).
struct ChainEstimate {
  int chain;
  long long first_round, last_round;  // the rounds averaged
  std::vector<double> normalised;
};
// The chains with at least one complete round, in chain order.
std::vector<ChainEstimate> ChainEstimates(const ModelTrajectory& trajectory);

// The final coefficients: the average of the chains' estimates; empty before
// any round completes.
std::vector<double> FinalCoefficients(const ModelTrajectory& trajectory);

// One step: round `round`'s averaged gradient (each component's mean
// report times the clip; a component without reports does not move) plus
// the ridge term, at rate learning_rate / sqrt(t), t the round's step in its
// chain, from `coefficients` (that chain's).
ModelStep StepModel(const ModelDefinition& model, long long round, const RoundSums& sums,
                    const std::vector<double>& coefficients);

// The coefficients after each complete training round (normalised scale):
// StepModel from zeros over the complete rounds, each on its chain's
// coefficients, O(rounds x components); held-out rounds train nothing.
ModelTrajectory ReplayModel(const ModelDefinition& model, const ModelAggregate& aggregate);

}  // namespace deniable
