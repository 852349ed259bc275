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

#include "core/kinds/regression/model_chains.h"
#include "core/kinds/regression/model_definition.h"
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
  long long round;
  int component;
  double value;
  bool sent = true;
};

struct RoundSums {
  std::vector<std::int64_t> count;
  std::vector<double> sum;
  std::int64_t reports = 0;
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
  std::int64_t n() const override { return n_; }
  // A gradient only for the current round while the model is not complete;
  // null (not sent) only once it is complete.
  Status Admits(const KindResponse& response) const override;
  bool Complete() const override { return current_ > model_->max_rounds(); }

  const std::map<long long, RoundSums>& rounds() const { return rounds_; }
  long long batch() const { return batch_; }
  // The first round with fewer than `batch` reports (kept up to date: O(1)).
  long long CurrentRound() const { return current_; }
  // The current round's chain's coefficients (normalised): ReplayModel's `current`, kept up to date.
  const std::vector<double>& CurrentCoefficients() const;

 private:
  // Moves current_ past complete rounds, stepping each one's chain (amortised O(components) per report).
  void AdvanceCurrentRound();
  // Replays every complete round into chains_ (after a change to a closed round).
  void Refold();

  std::shared_ptr<const ModelDefinition> model_;
  int components_;
  long long batch_;
  std::int64_t n_ = 0;
  std::map<long long, RoundSums> rounds_;
  long long current_ = 1;
  std::vector<std::vector<double>> chains_;  // each chain's coefficients after its last complete round
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

// One step: round `round`'s averaged gradient (each component's mean
// report times the clip; a component without reports does not move) plus
// the ridge term, at rate learning_rate / sqrt(t), t the round's step in its
// chain, from `coefficients` (that chain's).
ModelStep StepModel(const ModelDefinition& model, long long round, const RoundSums& sums,
                    const std::vector<double>& coefficients);

// The coefficients after each complete round (normalised scale): StepModel
// from zeros over the complete rounds, each on its chain's coefficients,
// O(rounds x components).
ModelTrajectory ReplayModel(const ModelDefinition& model, const ModelAggregate& aggregate);

}  // namespace deniable
