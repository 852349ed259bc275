#include "core/kinds/histogram/histogram_advisor.h"

#include <algorithm>
#include <cmath>

#include "core/common/validation.h"

namespace deniable {
namespace {

// The mechanisms' own p and q (they do not depend on the number of cells).
SupportProbabilities Probabilities(CategoricalKind kind, double epsilon) {
  return CreateCategoricalMechanism({kind, 2, epsilon, 1}).value()->probabilities();
}
SupportProbabilities Sue(double epsilon) { return Probabilities(CategoricalKind::kSue, epsilon); }
SupportProbabilities Oue(double epsilon) { return Probabilities(CategoricalKind::kOue, epsilon); }

struct Plan {
  std::string name;
  std::vector<double> per_bin;  // per consumer: expected count MSE per bin
  double total = 0.0;           // over every consumer's bins
};

}  // namespace

double PartitionCountMse(SupportProbabilities pq, int cells, double n) {
  const double gap = pq.p - pq.q;
  return cells * n * pq.q * (1.0 - pq.q) / (gap * gap);
}

nlohmann::json HistogramAdvice(const std::vector<std::string>& names, const std::vector<int>& consumer_bins,
                               int fine_cells, double epsilon, std::int64_t respondents,
                               const std::vector<double>& tree_costs) {
  const auto n = static_cast<double>(std::max<std::int64_t>(respondents, 1));
  const double consumers = static_cast<double>(consumer_bins.size());
  std::vector<Plan> plans = {{"sue", {}, 0.0}, {"oue", {}, 0.0}, {"tree", {}, 0.0}, {"baseline", {}, 0.0}};
  const SupportProbabilities oue_pq = Oue(epsilon);
  const double node_variance = n * oue_pq.q * (1.0 - oue_pq.q) / ((oue_pq.p - oue_pq.q) * (oue_pq.p - oue_pq.q));
  for (std::size_t j = 0; j < consumer_bins.size(); ++j) {
    const int bins = consumer_bins[j];
    const double sue = PartitionCountMse(Sue(epsilon), fine_cells, n);
    const double oue = PartitionCountMse(Oue(epsilon), fine_cells, n);
    const double split = epsilon / consumers;
    const double baseline = std::min(PartitionCountMse(Sue(split), bins, n), PartitionCountMse(Oue(split), bins, n));
    const double tree = tree_costs[j] * node_variance;
    for (auto [plan, total] : {std::pair{&plans[0], sue}, {&plans[1], oue}, {&plans[2], tree}, {&plans[3], baseline}}) {
      plan->per_bin.push_back(total / bins);
      plan->total += total;
    }
  }
  // The kind's own mechanisms: the best of the three.
  const Plan* chosen = &plans[0];
  for (std::size_t k = 1; k < 3; ++k) {
    if (plans[k].total < chosen->total) chosen = &plans[k];
  }
  std::vector<std::string> baseline_better;
  for (std::size_t j = 0; j < consumer_bins.size(); ++j) {
    if (plans[3].per_bin[j] < chosen->per_bin[j]) baseline_better.push_back(names[j]);
  }
  auto list = nlohmann::json::array();
  for (const Plan& plan : plans) {
    list.push_back({{"name", plan.name}, {"count_mse_per_bin", plan.per_bin}, {"total_count_mse", plan.total}});
  }
  std::string reason = chosen->name + " has the lowest expected error over every consumer's bins of sue, oue and tree";
  if (!baseline_better.empty()) {
    std::string who;
    for (const auto& name : baseline_better) who += (who.empty() ? "\"" : ", \"") + name + "\"";
    reason += "; for " + who +
              " a separate report per consumer at epsilon/" + std::to_string(consumer_bins.size()) +
              " would be more accurate (the common refinement's fine cells add noise to coarse bins): consider a "
              "separate question for " + (baseline_better.size() == 1 ? "it" : "them");
  }
  return {{"epsilon", epsilon},
          {"n", respondents},
          {"fine_cells", fine_cells},
          {"mechanisms", list},
          {"recommended", chosen->name},
          {"baseline_better_for", baseline_better},
          {"reason", reason}};
}

}  // namespace deniable
