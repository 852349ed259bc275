#include "core/kinds/block/cross_tab.h"

#include <algorithm>
#include <map>
#include <cmath>
#include <limits>

#include "core/frequency/consistent_joint.h"
#include "core/kinds/block/joint_em.h"
#include "core/kinds/block/joint_estimator.h"
#include "core/kinds/block/lasso_joint.h"

namespace deniable {
namespace {

std::string Names(const BlockDefinition& block, std::uint32_t set) {
  std::string names;
  for (int a : Members(set)) names += (names.empty() ? "" : ", ") + block.attributes[static_cast<std::size_t>(a)].id;
  return names;
}

std::vector<std::vector<double>> MarginsOf(std::uint32_t set, const std::vector<std::vector<double>>& margins) {
  std::vector<std::vector<double>> chosen;
  for (int a : Members(set)) chosen.push_back(margins[static_cast<std::size_t>(a)]);
  return chosen;
}

std::vector<double> Squares(const std::vector<double>& values) {
  std::vector<double> squares;
  for (double x : values) squares.push_back(x * x);
  return squares;
}

bool Feasible(const BlockAggregate& aggregate, std::uint32_t set, const CrossTabOptions& options) {
  return SetSize(set) <= aggregate.joint_order() && aggregate.Answered(set) >= options.min_group;
}

// Situation 1 (feasibility checked by the caller).
CrossTab SituationOne(const BlockAggregate& aggregate, const BlockDefinition& block, std::uint32_t set,
                      const CrossTabOptions& options, const std::vector<std::vector<double>>& margins) {
  CrossTab table;
  table.attributes = Members(set);
  if (options.mode == BlockMode::kPaper) {
    const JointCounts joint = EstimateJointByLasso(aggregate, set, block.epsilon_per_attribute);
    table.sizes = joint.sizes;
    table.n = joint.n;
    for (double c : joint.count) table.consistent.push_back(c / static_cast<double>(joint.n));
    table.note = "paper mode: the LASSO on the attributes' bit counts, which hold only each attribute's own "
                 "distribution; any table with those margins fits them equally well, so the dependence shown is "
                 "the solver's, not the reports' (no interval)";
    return table;
  }
  const JointCounts joint = EstimateJoint(aggregate, set, options.interval);
  table.sizes = joint.sizes;
  table.n = joint.n;
  const double n = static_cast<double>(joint.n);
  for (std::size_t c = 0; c < joint.count.size(); ++c) {
    table.frequency.push_back(joint.count[c] / n);
    table.std_error.push_back(std::sqrt(joint.variance[c]) / n);
  }
  const EmTarget target{table.frequency, Squares(table.std_error)};
  table.consistent = FitMargins(JointByEm(aggregate, set, MarginsOf(set, margins), &target, kMaxAcceleratedEmRounds).table,
                                joint.sizes, MarginsOf(set, margins));
  return table;
}

double EntropySum(const CrossTab& first, const CrossTab& second) {
  double entropy = 0.0;
  for (const CrossTab* part : {&first, &second}) {
    for (double p : part->consistent) entropy -= p > 0.0 ? p * std::log(p) : 0.0;
  }
  return entropy;
}

// The product of two parts' tables, in the set's cell order.
std::vector<double> Product(const CrossTab& first, const CrossTab& second, const std::vector<int>& attributes,
                            const std::vector<int>& sizes) {
  std::size_t cells = 1;
  for (int size : sizes) cells *= static_cast<std::size_t>(size);
  std::vector<double> product(cells);
  std::vector<int> digits(attributes.size());
  auto index_in = [&](const CrossTab& part) {
    std::size_t index = 0;
    for (std::size_t j = 0; j < part.attributes.size(); ++j) {
      const std::size_t i = static_cast<std::size_t>(
          std::find(attributes.begin(), attributes.end(), part.attributes[j]) - attributes.begin());
      index = index * static_cast<std::size_t>(part.sizes[j]) + static_cast<std::size_t>(digits[i]);
    }
    return index;
  };
  for (std::size_t cell = 0; cell < cells; ++cell) {
    std::size_t rest = cell;
    for (std::size_t i = attributes.size(); i-- > 0;) {
      digits[i] = static_cast<int>(rest % static_cast<std::size_t>(sizes[i]));
      rest /= static_cast<std::size_t>(sizes[i]);
    }
    product[cell] = first.consistent[index_in(first)] * second.consistent[index_in(second)];
  }
  return product;
}

Result<CrossTab> SituationTwo(const BlockAggregate& aggregate, const BlockDefinition& block, std::uint32_t set,
                              const CrossTabOptions& options, const std::vector<std::vector<double>>& margins) {
  const int k = SetSize(set);
  std::map<std::uint32_t, CrossTab> parts;  // each part is estimated once, however many splits it is in
  auto part = [&](std::uint32_t mask) -> const CrossTab& {
    auto found = parts.find(mask);
    if (found == parts.end()) found = parts.emplace(mask, SituationOne(aggregate, block, mask, options, margins)).first;
    return found->second;
  };
  for (int r = 1; r <= k / 2; ++r) {
    std::optional<CrossTab> best_first, best_second;
    double best_score = 0.0;
    for (std::uint32_t second = set; second != 0; second = (second - 1) & set) {
      if (SetSize(second) != r) continue;
      const std::uint32_t first = set & ~second;
      if (!Feasible(aggregate, first, options) || !Feasible(aggregate, second, options)) continue;
      const CrossTab& a = part(first);
      const CrossTab& b = part(second);
      const double entropy = EntropySum(a, b);
      const double score = options.split_score == SplitScore::kFormula ? -entropy : entropy;
      if (!best_first || score > best_score) {
        best_score = score;
        best_first = a;
        best_second = b;
      }
    }
    if (!best_first) continue;
    CrossTab table;
    table.attributes = Members(set);
    for (int a : table.attributes) table.sizes.push_back(block.attributes[static_cast<std::size_t>(a)].size());
    table.situation = 2;
    table.parts = {best_first->attributes, best_second->attributes};
    table.n = std::min(best_first->n, best_second->n);
    table.consistent = Product(*best_first, *best_second, table.attributes, table.sizes);
    std::uint32_t first_part = 0;
    for (int a : best_first->attributes) first_part |= std::uint32_t{1} << a;
    table.note = "too few respondents answered all of " + Names(block, set) +
                 " together, so this table is the product of two parts' tables (" + Names(block, first_part) +
                 "; " + Names(block, set & ~first_part) +
                 "): it assumes the parts independent, so it shows no dependence between them and has no honest "
                 "interval";
    return table;
  }
  return MakeError("no cross-tabulation of " + Names(block, set) + ": fewer than " + std::to_string(options.min_group) +
                   " respondents answered them all, and no split into two parts of at most " +
                   std::to_string(aggregate.joint_order()) + " attributes has that many answering each part");
}

}  // namespace

Result<CrossTab> EstimateCrossTab(const BlockAggregate& aggregate, const BlockDefinition& block, std::uint32_t set,
                                  const CrossTabOptions& options, const std::vector<std::vector<double>>& margins) {
  if (Feasible(aggregate, set, options)) return SituationOne(aggregate, block, set, options, margins);
  return SituationTwo(aggregate, block, set, options, margins);
}

}  // namespace deniable
