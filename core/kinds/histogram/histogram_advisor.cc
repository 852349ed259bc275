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
  return (n * pq.p * (1.0 - pq.p) + (cells - 1) * n * pq.q * (1.0 - pq.q)) / (gap * gap);
}

nlohmann::json HistogramAdvice(const std::vector<std::string>& names, const std::vector<int>& consumer_bins,
                               int fine_cells, double epsilon, std::int64_t respondents) {
  const auto n = static_cast<double>(std::max<std::int64_t>(respondents, 1));
  const double consumers = static_cast<double>(consumer_bins.size());
  std::vector<Plan> plans = {{"chp_sue", {}, 0.0}, {"chp_oue", {}, 0.0}, {"baseline", {}, 0.0}};
  for (int bins : consumer_bins) {
    const double sue = PartitionCountMse(Sue(epsilon), fine_cells, n);
    const double oue = PartitionCountMse(Oue(epsilon), fine_cells, n);
    const double split = epsilon / consumers;
    const double baseline = std::min(PartitionCountMse(Sue(split), bins, n), PartitionCountMse(Oue(split), bins, n));
    for (auto [plan, total] : {std::pair{&plans[0], sue}, {&plans[1], oue}, {&plans[2], baseline}}) {
      plan->per_bin.push_back(total / bins);
      plan->total += total;
    }
  }
  // The kind's own mechanisms: the better of the two.
  const Plan& chosen = plans[0].total <= plans[1].total ? plans[0] : plans[1];
  std::vector<std::string> baseline_better;
  for (std::size_t j = 0; j < consumer_bins.size(); ++j) {
    if (plans[2].per_bin[j] < chosen.per_bin[j]) baseline_better.push_back(names[j]);
  }
  auto list = nlohmann::json::array();
  for (const Plan& plan : plans) {
    list.push_back({{"name", plan.name}, {"count_mse_per_bin", plan.per_bin}, {"total_count_mse", plan.total}});
  }
  std::string reason = std::string(chosen.name == "chp_sue" ? "sue" : "oue") +
                       " has the lower expected error over every consumer's bins";
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
          {"recommended", chosen.name == "chp_sue" ? "sue" : "oue"},
          {"baseline_better_for", baseline_better},
          {"reason", reason}};
}

}  // namespace deniable
