#include "core/kinds/histogram/histogram_advisor.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace deniable {
namespace {

struct Plan {
  std::string name;
  std::vector<double> per_bin;  // per consumer: expected count MSE per bin
  double total = 0.0;           // over every consumer's bins
};

// The question with another mechanism (and, for the baseline, one consumer at a share of epsilon).
std::shared_ptr<const HistogramQuestionKind> Variant(const HistogramQuestionKind& kind, const std::string& mechanism,
                                                     double epsilon, std::optional<std::size_t> consumer) {
  nlohmann::json definition = kind.DefinitionToJson();
  definition["mechanism"] = {{"name", mechanism}, {"epsilon", epsilon}};
  if (consumer) definition["histograms"] = nlohmann::json::array({definition["histograms"][*consumer]});
  auto parsed = HistogramQuestionKind::Parse(definition, "advice");
  if (!parsed) return nullptr;  // epsilon / M below the smallest allowed: no baseline
  return std::static_pointer_cast<const HistogramQuestionKind>(std::move(parsed).value());
}

// Answers spread evenly over the range: n times each fine cell's width share.
std::vector<double> EvenAnswers(const HistogramQuestionKind& kind, double n) {
  const FinePartition& partition = kind.partition();
  std::vector<double> answers;
  for (int c = 0; c < partition.cells(); ++c) {
    answers.push_back(n * (partition.BoundaryValue(c + 1) - partition.BoundaryValue(c)) / partition.range().width());
  }
  return answers;
}

// Per consumer of `kind`: the expected count MSE per bin from the mechanism's noise (the variance for these
// respondents): what tells the designs apart; sampling adds the same pi (1 - pi) n to every design's.
std::vector<double> PerBinMse(const HistogramQuestionKind& kind, double n) {
  const LevelEstimates estimates =
      kind.Estimates(ExpectedAggregate(kind, EvenAnswers(kind, n)), IntervalTarget::kRespondents);
  std::vector<double> per_bin;
  for (const ConsumerRequest& consumer : kind.consumers()) {
    const std::vector<int> starts = kind.partition().BinStarts(consumer.boundaries);
    double total = 0.0;
    for (std::size_t b = 0; b + 1 < starts.size(); ++b) total += estimates.DecompositionRange(starts[b], starts[b + 1]).variance;
    per_bin.push_back(total * n * n / static_cast<double>(starts.size() - 1));
  }
  return per_bin;
}

}  // namespace

HistogramAggregate ExpectedAggregate(const HistogramQuestionKind& kind, const std::vector<double>& answers) {
  const TreeShape& shape = kind.shape();
  const auto pq = kind.mechanism().probabilities();
  const std::vector<double> weights = kind.tree() ? kind.tree()->level_weights : std::vector<double>{1.0};
  double n = 0.0;
  for (double a : answers) n += a;
  std::vector<LevelCounts> levels;
  for (int l = 1; l <= shape.height; ++l) {
    const double share = weights[static_cast<std::size_t>(l) - 1];
    LevelCounts level{std::llround(share * n), {}};
    std::vector<double> there(static_cast<std::size_t>(shape.NodesAt(l)), 0.0);
    for (std::size_t c = 0; c < answers.size(); ++c) there[c / static_cast<std::size_t>(shape.SpanOf(l))] += share * answers[c];
    for (double t : there) level.counts.push_back(std::llround(t * pq.p + (static_cast<double>(level.n) - t) * pq.q));
    levels.push_back(std::move(level));
  }
  return HistogramAggregate(std::move(levels));
}

nlohmann::json HistogramKindAdvice(const HistogramQuestionKind& kind, std::int64_t respondents) {
  const double n = static_cast<double>(std::max<std::int64_t>(respondents, 1));
  const double epsilon = *kind.epsilon();
  const std::size_t consumers = kind.consumers().size();
  std::vector<Plan> plans;
  for (const char* name : {"sue", "oue", "tree"}) {
    Plan plan{name, PerBinMse(*Variant(kind, name, epsilon, std::nullopt), n), 0.0};
    plans.push_back(std::move(plan));
  }
  Plan baseline{"baseline", {}, 0.0};
  for (std::size_t j = 0; j < consumers; ++j) {
    double best = INFINITY;
    for (const char* name : {"sue", "oue"}) {
      const auto own = Variant(kind, name, epsilon / static_cast<double>(consumers), j);
      if (own) best = std::min(best, PerBinMse(*own, n)[0]);
    }
    baseline.per_bin.push_back(best);
  }
  plans.push_back(std::move(baseline));
  for (Plan& plan : plans) {
    for (std::size_t j = 0; j < consumers; ++j) {
      plan.total += plan.per_bin[j] * static_cast<double>(kind.consumers()[j].boundaries.size() - 1);
    }
  }
  // The kind's own mechanisms: the best of the three.
  const Plan* chosen = &plans[0];
  for (std::size_t k = 1; k < 3; ++k) {
    if (plans[k].total < chosen->total) chosen = &plans[k];
  }
  std::vector<std::string> baseline_better;
  for (std::size_t j = 0; j < consumers; ++j) {
    if (plans[3].per_bin[j] < chosen->per_bin[j]) baseline_better.push_back(kind.consumers()[j].name);
  }
  auto list = nlohmann::json::array();
  for (const Plan& plan : plans) {
    list.push_back({{"name", plan.name}, {"count_mse_per_bin", plan.per_bin}, {"total_count_mse", plan.total}});
  }
  std::string reason = chosen->name + " has the lowest expected error over every consumer's bins of sue, oue and tree";
  if (!baseline_better.empty()) {
    std::string who;
    for (const auto& name : baseline_better) who += (who.empty() ? "\"" : ", \"") + name + "\"";
    reason += "; for " + who + " a separate report per consumer at epsilon/" + std::to_string(consumers) +
              " would be more accurate (the common refinement's fine cells add noise to coarse bins): consider a "
              "separate question for " + (baseline_better.size() == 1 ? "it" : "them");
  }
  return {{"epsilon", epsilon},
          {"n", respondents},
          {"fine_cells", kind.partition().cells()},
          {"mechanisms", list},
          {"recommended", chosen->name},
          {"baseline_better_for", baseline_better},
          {"reason", reason}};
}

}  // namespace deniable
