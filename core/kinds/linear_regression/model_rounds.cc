#include "core/kinds/linear_regression/model_rounds.h"

#include <cmath>

namespace deniable {

ModelAggregate::ModelAggregate(std::shared_ptr<const ModelDefinition> model, long long batch)
    : model_(std::move(model)),
      components_(model_->components()),
      batch_(batch),
      chains_(static_cast<std::size_t>(model_->chains()), std::vector<double>(static_cast<std::size_t>(components_), 0.0)) {}

std::string_view ModelAggregate::type() const { return "linear_regression"; }

void ModelAggregate::AdvanceCurrentRound() {
  for (auto at = rounds_.find(current_); at != rounds_.end() && at->second.reports >= batch_; at = rounds_.find(current_)) {
    if (!model_->Scores(current_)) {
      std::vector<double>& beta = chains_[static_cast<std::size_t>(ChainOfRound(current_, model_->chains()).chain)];
      beta = StepModel(*model_, current_, at->second, beta).coefficients;
    }
    ++current_;
    if (current_ == model_->training_rounds() + 1) ScoreFinal();  // once: O(training rounds x components)
  }
}

void ModelAggregate::ScoreFinal() {
  scored_.clear();
  if (model_->Scores(current_)) scored_ = FinalCoefficients(ReplayModel(*model_, *this));
}

void ModelAggregate::Refold() {
  for (auto& chain : chains_) chain.assign(static_cast<std::size_t>(components_), 0.0);
  for (long long round = 1; round < current_ && !model_->Scores(round); ++round) {
    std::vector<double>& beta = chains_[static_cast<std::size_t>(ChainOfRound(round, model_->chains()).chain)];
    beta = StepModel(*model_, round, rounds_.at(round), beta).coefficients;
  }
  ScoreFinal();
}

const std::vector<double>& ModelAggregate::CurrentCoefficients() const {
  if (model_->Scores(current_) && !scored_.empty()) return scored_;
  return chains_[static_cast<std::size_t>(ChainOfRound(current_, model_->chains()).chain)];
}

Status ModelAggregate::Admits(const KindResponse& response) const {
  const auto& gradient = static_cast<const GradientResponse&>(response);
  const long long current = CurrentRound();
  if (!gradient.sent) {
    if (Complete()) return OkStatus();
    return MakeError("the model still takes reports (round " + std::to_string(current) + " of at most " +
                     std::to_string(model_->max_rounds()) + "): its part of the report cannot be left out; fetch the "
                     "model's state again and prepare a model report");
  }
  if (Complete()) {
    return MakeError("the model is complete: its " + std::to_string(model_->max_rounds()) +
                     " rounds (max_rounds) are all done and it takes no more reports; send the report with null for "
                     "the model (the page does this after fetching the model's state again)");
  }
  if (gradient.round < current) {
    return MakeError("round " + std::to_string(gradient.round) + " is closed; the current round is " +
                     std::to_string(current) + ": fetch the model's state again and prepare a new report");
  }
  if (gradient.round > current) {
    return MakeError("round " + std::to_string(gradient.round) + " has not started; the current round is " +
                     std::to_string(current));
  }
  if (gradient.score != model_->Scores(current)) {
    return MakeError("round " + std::to_string(current) + (gradient.score ? " trains the model: it takes gradients, "
                     "not squared errors" : " is held out to score the model: it takes squared errors, not gradients") +
                     "; fetch the model's state again and prepare a new report");
  }
  return OkStatus();
}

void ModelAggregate::Add(const KindResponse& response) {
  const auto& gradient = static_cast<const GradientResponse&>(response);
  if (!gradient.sent) return;  // a complete model's null: nothing to count
  RoundSums& sums = rounds_[gradient.round];
  if (sums.count.empty()) {
    sums.count.assign(static_cast<std::size_t>(components_), 0);
    sums.sum.assign(static_cast<std::size_t>(components_), 0.0);
  }
  ++sums.count[static_cast<std::size_t>(gradient.component)];
  sums.sum[static_cast<std::size_t>(gradient.component)] += gradient.value;
  if (gradient.score) sums.squares += gradient.value * gradient.value;
  ++sums.reports;
  ++n_;
  if (gradient.round < current_) {
    Refold();  // a closed round changed: every later step of its chain moves
    return;
  }
  AdvanceCurrentRound();
}

Status ModelAggregate::Merge(const KindAggregate& other) {
  if (other.type() != type()) return MakeError("a question of another kind");
  const auto& theirs = static_cast<const ModelAggregate&>(other);
  if (theirs.components_ != components_ || theirs.batch_ != batch_ || theirs.model_->chains() != model_->chains()) {
    return MakeError("another model");
  }
  for (const auto& [number, sums] : theirs.rounds_) {
    RoundSums& mine = rounds_[number];
    if (mine.count.empty()) {
      mine = sums;
      continue;
    }
    for (int c = 0; c < components_; ++c) {
      mine.count[static_cast<std::size_t>(c)] += sums.count[static_cast<std::size_t>(c)];
      mine.sum[static_cast<std::size_t>(c)] += sums.sum[static_cast<std::size_t>(c)];
    }
    mine.reports += sums.reports;
    mine.squares += sums.squares;
  }
  n_ += theirs.n_;
  // Merged rounds may be closed ones, or close several at once out of order: replay once.
  while (rounds_.count(current_) && rounds_.at(current_).reports >= batch_) ++current_;
  Refold();
  return OkStatus();
}

ModelStep StepModel(const ModelDefinition& model, long long round, const RoundSums& sums,
                    const std::vector<double>& coefficients) {
  const auto components = static_cast<std::size_t>(model.components());
  const ChainPlace place = ChainOfRound(round, model.chains());
  ModelStep step{round, place, sums.reports, std::vector<double>(components, 0.0), coefficients};
  const double rate = model.learning_rate / std::sqrt(static_cast<double>(place.step));
  for (std::size_t c = 0; c < components; ++c) {
    step.gradient[c] = sums.count[c] > 0 ? model.clip * sums.sum[c] / static_cast<double>(sums.count[c]) : 0.0;
    const double ridge = c == 0 ? 0.0 : model.ridge * coefficients[c];  // the intercept is not penalised
    step.coefficients[c] -= rate * (step.gradient[c] + ridge);
  }
  return step;
}

ModelTrajectory ReplayModel(const ModelDefinition& model, const ModelAggregate& aggregate) {
  ModelTrajectory trajectory;
  trajectory.initial.assign(static_cast<std::size_t>(model.components()), 0.0);
  trajectory.chains.assign(static_cast<std::size_t>(model.chains()), trajectory.initial);
  const long long current = aggregate.CurrentRound();
  for (long long round = 1; round < current && !model.Scores(round); ++round) {
    std::vector<double>& beta = trajectory.chains[static_cast<std::size_t>(ChainOfRound(round, model.chains()).chain)];
    trajectory.steps.push_back(StepModel(model, round, aggregate.rounds().at(round), beta));
    beta = trajectory.steps.back().coefficients;
  }
  trajectory.current = model.Scores(current) ? FinalCoefficients(trajectory)
                                             : trajectory.chains[static_cast<std::size_t>(ChainOfRound(current, model.chains()).chain)];
  return trajectory;
}

std::vector<ChainEstimate> ChainEstimates(const ModelTrajectory& trajectory) {
  std::vector<std::vector<const ModelStep*>> by_chain(trajectory.chains.size());
  for (const ModelStep& step : trajectory.steps) by_chain[static_cast<std::size_t>(step.place.chain)].push_back(&step);
  std::vector<ChainEstimate> estimates;
  for (std::size_t chain = 0; chain < by_chain.size(); ++chain) {
    const auto& steps = by_chain[chain];
    if (steps.empty()) continue;
    const std::size_t first = steps.size() / 2;
    std::vector<double> average(trajectory.initial.size(), 0.0);
    for (std::size_t r = first; r < steps.size(); ++r) {
      for (std::size_t j = 0; j < average.size(); ++j) average[j] += steps[r]->coefficients[j];
    }
    for (double& value : average) value /= static_cast<double>(steps.size() - first);
    estimates.push_back({static_cast<int>(chain), steps[first]->round, steps.back()->round, std::move(average)});
  }
  return estimates;
}

std::vector<double> FinalCoefficients(const ModelTrajectory& trajectory) {
  const std::vector<ChainEstimate> estimates = ChainEstimates(trajectory);
  if (estimates.empty()) return {};
  std::vector<double> mean(trajectory.initial.size(), 0.0);
  for (const ChainEstimate& estimate : estimates) {
    for (std::size_t j = 0; j < mean.size(); ++j) mean[j] += estimate.normalised[j] / static_cast<double>(estimates.size());
  }
  return mean;
}

}  // namespace deniable
