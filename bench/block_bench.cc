// Blocks (seed 002, PLDP / PMOUE) on data with known dependence: a Bayesian
// network over d = 9 attributes with domains 2-16 (a tree: each attribute's
// options depend on its parent's through a random table, Dirichlet(0.5)
// rows, fixed seed), every respondent answering all nine.
//   1. AVD (total variation against the respondents' own distribution) of
//      the marginals (mean over the 9 attributes) and of k = 2..5 joints
//      (mean over 6 fixed attribute sets per k) for
//        paper      q(e_avg) marginals, the LASSO's joints (Situation 2 past joint_order);
//        calibrated the self-calibrated marginals (the kind's default);
//        default    the kind's default joints (co-occurrences; consistent);
//        SPL        every attribute at e_avg, whatever the respondent's
//                   preference (equal splits), with the default estimators;
//        SMP        one attribute per respondent, sampled, with the whole
//                   budget 9 e_avg (OUE), joints as products of marginals;
//      at e_avg = 0.5, 1, 2, 4, equal and Dirichlet(1) splits, n = 10^5
//      (and n = 10^4, 10^6 at e_avg = 2);
//   2. estimation time from the aggregate for k = 2..5.
// The aggregate is built with joint_order 4 (the survey format caps the
// definition's aggregate at 2^21 counts; with everyone answering all nine
// only the m = 9 groups exist, 1/6 of the bound), so k = 5 is Situation 2.
//   3. --explosion: the issue 26 (item 1) table. n = 8,802 (the real table's
//      size), e = 1, joint_order 2; case A: attribute a0 skipped by 0.1% (about
//      nine respondents answer 8 of 9), case B: a2, a5, a7 skipped by 10%, 5%,
//      15%; equal and Dirichlet(1) splits; 20 seeds. Per seed, the largest AVD
//      over the nine marginals (unbiased and consistent) and over the 36 pairs'
//      cross-tabs (unbiased cells and consistent), each against the
//      respondents' own distribution, beside a reference with nothing skipped
//      (no small group). It uses only the API main had before the fix, so the
//      same file linked against main's library gives the "before".
// Run: build/block_bench [--quick] [--runs R] [--one N EPSILON DIRICHLET] [--explosion]
//      (Markdown tables; progress on stderr)
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "core/common/seeded_random.h"
#include "core/frequency/frequency_estimator.h"
#include "core/frequency/norm_sub.h"
#include "core/kinds/block/block_aggregate.h"
#include "core/kinds/block/block_marginals.h"
#include "core/kinds/block/block_truth.h"
#include "core/kinds/block/budget_split.h"
#include "core/kinds/block/cross_tab.h"
#include "core/kinds/block/pmoue.h"

using namespace deniable;

namespace {

const std::vector<int> kSizes = {2, 3, 4, 5, 6, 8, 10, 12, 16};
const std::vector<int> kParents = {-1, 0, 0, 1, 1, 2, 3, 4, 5};  // a tree over the nine
constexpr int kJointOrder = 4;
constexpr int kSetsPerK = 6;

struct Network {
  std::vector<std::vector<std::vector<double>>> cumulative;  // per attribute, per parent option: cumulative weights
};

Network MakeNetwork(std::uint64_t seed) {
  SeededRandom random(seed);
  Network network;
  for (std::size_t a = 0; a < kSizes.size(); ++a) {
    const int rows = kParents[a] < 0 ? 1 : kSizes[static_cast<std::size_t>(kParents[a])];
    std::vector<std::vector<double>> table;
    for (int r = 0; r < rows; ++r) {
      std::vector<double> row;
      double total = 0.0;
      for (int b = 0; b < kSizes[a]; ++b) row.push_back(total += GammaDraw(0.5, random) + 1e-3);
      for (double& c : row) c /= total;
      table.push_back(row);
    }
    network.cumulative.push_back(table);
  }
  return network;
}

std::vector<int> DrawRecord(const Network& network, RandomSource& random) {
  std::vector<int> values(kSizes.size());
  for (std::size_t a = 0; a < kSizes.size(); ++a) {
    const auto& row = network.cumulative[a][kParents[a] < 0 ? 0 : static_cast<std::size_t>(values[static_cast<std::size_t>(kParents[a])])];
    const double u = UniformUnit(random);
    values[a] = static_cast<int>(std::min<std::ptrdiff_t>(std::upper_bound(row.begin(), row.end(), u) - row.begin(),
                                                          static_cast<std::ptrdiff_t>(row.size()) - 1));
  }
  return values;
}

BlockDefinition Definition(double epsilon) {
  BlockDefinition block;
  for (std::size_t a = 0; a < kSizes.size(); ++a) {
    BlockAttribute attribute{"a" + std::to_string(a), "a" + std::to_string(a), {}};
    for (int b = 0; b < kSizes[a]; ++b) attribute.options.push_back(std::to_string(b));
    block.attributes.push_back(attribute);
  }
  block.epsilon_per_attribute = epsilon;
  block.bounds = {0.1, 4.0};
  block.joint_order = kJointOrder;
  return block;
}

// The attribute sets measured at k: fixed, spread over the block.
std::vector<std::uint32_t> SetsOf(int k) {
  SeededRandom random(1000 + static_cast<std::uint64_t>(k));
  std::vector<std::uint32_t> sets;
  while (static_cast<int>(sets.size()) < kSetsPerK) {
    std::uint32_t set = 0;
    while (SetSize(set) < k) set |= std::uint32_t{1} << UniformBelow(random, kSizes.size());
    if (std::find(sets.begin(), sets.end(), set) == sets.end()) sets.push_back(set);
  }
  return sets;
}

double TotalVariation(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += std::abs(a[i] - b[i]);
  return sum / 2.0;
}

// The respondents' own joint of a set, from their records.
std::vector<double> TrueJoint(const std::vector<std::vector<int>>& records, std::uint32_t set) {
  const std::vector<int> members = Members(set);
  std::size_t cells = 1;
  for (int a : members) cells *= static_cast<std::size_t>(kSizes[static_cast<std::size_t>(a)]);
  std::vector<double> joint(cells, 0.0);
  for (const auto& record : records) {
    std::size_t cell = 0;
    for (int a : members) cell = cell * static_cast<std::size_t>(kSizes[static_cast<std::size_t>(a)]) + static_cast<std::size_t>(record[static_cast<std::size_t>(a)]);
    joint[cell] += 1.0 / static_cast<double>(records.size());
  }
  return joint;
}

std::vector<double> Product(const std::vector<std::vector<double>>& margins, std::uint32_t set) {
  std::vector<double> joint = {1.0};
  for (int a : Members(set)) {
    std::vector<double> longer;
    for (double p : joint) {
      for (double m : margins[static_cast<std::size_t>(a)]) longer.push_back(p * m);
    }
    joint = std::move(longer);
  }
  return joint;
}

struct Row {
  double marginals = 0.0;
  std::vector<double> joints = std::vector<double>(6, 0.0);  // k = 2..5 at [k]
};

// One population through PMOUE (personalised or equal) and the block's estimators.
void Pmoue(const BlockDefinition& block, const std::vector<std::vector<int>>& records, double dirichlet,
           std::uint64_t seed, Row& paper, Row& calibrated, Row& joint) {
  SeededRandom random(seed);
  BlockAggregate aggregate(kSizes, kJointOrder);
  BlockChoices choices{std::vector<bool>(kSizes.size(), true), std::vector<double>(kSizes.size(), 1.0)};
  for (const auto& record : records) {
    if (dirichlet > 0.0) {
      for (double& w : choices.weight) w = std::clamp(GammaDraw(dirichlet, random), kLeastWeight, kLargestWeight);
    }
    aggregate.AddReport(PerturbBlock(block, record, SplitBudget(block, choices), random));
  }
  std::vector<std::vector<double>> calibrated_margins, paper_margins;
  for (std::size_t a = 0; a < kSizes.size(); ++a) {
    std::vector<double> truth(static_cast<std::size_t>(kSizes[a]), 0.0);
    for (const auto& record : records) truth[static_cast<std::size_t>(record[a])] += 1.0 / static_cast<double>(records.size());
    for (BlockMode mode : {BlockMode::kCalibrated, BlockMode::kPaper}) {
      const MarginalEstimate estimate = EstimateMarginal(aggregate, static_cast<int>(a), mode, block.epsilon_per_attribute);
      std::vector<double> consistent;
      for (const auto& option : estimate.options) consistent.push_back(option.consistent_frequency);
      (mode == BlockMode::kPaper ? paper : calibrated).marginals += TotalVariation(consistent, truth) / kSizes.size();
      (mode == BlockMode::kPaper ? paper_margins : calibrated_margins).push_back(consistent);
    }
  }
  for (int k = 2; k <= 5; ++k) {
    for (std::uint32_t set : SetsOf(k)) {
      const std::vector<double> truth = TrueJoint(records, set);
      CrossTabOptions options;
      auto mine = EstimateCrossTab(aggregate, block, set, options, calibrated_margins);
      options.mode = BlockMode::kPaper;
      auto theirs = EstimateCrossTab(aggregate, block, set, options, paper_margins);
      if (mine) joint.joints[static_cast<std::size_t>(k)] += TotalVariation(mine->consistent, truth) / kSetsPerK;
      if (theirs) paper.joints[static_cast<std::size_t>(k)] += TotalVariation(theirs->consistent, truth) / kSetsPerK;
    }
  }
}

// SMP: each respondent reports one sampled attribute by OUE with the whole budget.
Row Smp(const std::vector<std::vector<int>>& records, double epsilon_total, std::uint64_t seed) {
  SeededRandom random(seed);
  std::vector<std::vector<std::int64_t>> support;
  std::vector<std::int64_t> n(kSizes.size(), 0);
  for (int size : kSizes) support.emplace_back(static_cast<std::size_t>(size), 0);
  const double q = OueQ(epsilon_total);
  for (const auto& record : records) {
    const std::size_t a = UniformBelow(random, kSizes.size());
    ++n[a];
    for (int b = 0; b < kSizes[a]; ++b) support[a][static_cast<std::size_t>(b)] += Bernoulli(random, b == record[a] ? 0.5 : q);
  }
  Row row;
  std::vector<std::vector<double>> margins;
  for (std::size_t a = 0; a < kSizes.size(); ++a) {
    std::vector<double> truth(static_cast<std::size_t>(kSizes[a]), 0.0);
    for (const auto& record : records) truth[static_cast<std::size_t>(record[a])] += 1.0 / static_cast<double>(records.size());
    const FrequencyEstimate estimate = EstimateFrequencies(support[a], n[a], {0.5, q});
    std::vector<double> consistent;
    for (const auto& option : estimate.options) consistent.push_back(option.consistent_frequency);
    row.marginals += TotalVariation(consistent, truth) / kSizes.size();
    margins.push_back(consistent);
  }
  for (int k = 2; k <= 5; ++k) {
    for (std::uint32_t set : SetsOf(k)) {
      row.joints[static_cast<std::size_t>(k)] += TotalVariation(Product(margins, set), TrueJoint(records, set)) / kSetsPerK;
    }
  }
  return row;
}

void PrintRow(const char* name, const Row& row, int runs) {
  std::printf("| %s | %.4f | %.4f | %.4f | %.4f | %.4f |\n", name, row.marginals / runs, row.joints[2] / runs,
              row.joints[3] / runs, row.joints[4] / runs, row.joints[5] / runs);
}

void Add(Row& into, const Row& row) {
  into.marginals += row.marginals;
  for (std::size_t k = 0; k < into.joints.size(); ++k) into.joints[k] += row.joints[k];
}

void Accuracy(std::int64_t n, double epsilon, double dirichlet, int runs, const Network& network) {
  Row paper, calibrated, joint, spl, spl_unused, smp;
  for (int run = 0; run < runs; ++run) {
    std::fprintf(stderr, "n = %lld, e = %g, %s splits, run %d\n", static_cast<long long>(n), epsilon,
                 dirichlet > 0 ? "Dirichlet" : "equal", run + 1);
    SeededRandom draw(static_cast<std::uint64_t>(n) * 31 + static_cast<std::uint64_t>(run));
    std::vector<std::vector<int>> records;
    for (std::int64_t r = 0; r < n; ++r) records.push_back(DrawRecord(network, draw));
    const BlockDefinition block = Definition(epsilon);
    Pmoue(block, records, dirichlet, 100 + static_cast<std::uint64_t>(run), paper, calibrated, joint);
    Row spl_paper, spl_calibrated;
    if (dirichlet > 0.0) {
      Pmoue(block, records, 0.0, 200 + static_cast<std::uint64_t>(run), spl_paper, spl_calibrated, spl);
      spl.marginals += spl_calibrated.marginals;
    }
    Add(smp, Smp(records, epsilon * static_cast<double>(kSizes.size()), 300 + static_cast<std::uint64_t>(run)));
  }
  std::printf("\n**n = %lld, e_avg = %g, %s splits** (%d run%s; AVD, lower is better)\n\n", static_cast<long long>(n),
              epsilon, dirichlet > 0 ? "Dirichlet(1)" : "equal", runs, runs == 1 ? "" : "s");
  std::printf("| method | marginals | k = 2 | k = 3 | k = 4 | k = 5 |\n|---|---:|---:|---:|---:|---:|\n");
  PrintRow("paper (q(e_avg) + LASSO)", paper, runs);
  Row calibrated_row = joint;
  calibrated_row.marginals = calibrated.marginals;
  PrintRow("calibrated marginals + default joints", calibrated_row, runs);
  if (dirichlet > 0.0) PrintRow("SPL (equal split, default estimators)", spl, runs);
  PrintRow("SMP (one attribute, whole budget; joints = products)", smp, runs);
}

void Timing(const Network& network, std::int64_t n) {
  SeededRandom random(5);
  const BlockDefinition block = Definition(2.0);
  BlockAggregate aggregate(kSizes, kJointOrder);
  BlockChoices choices{std::vector<bool>(kSizes.size(), true), std::vector<double>(kSizes.size(), 1.0)};
  for (std::int64_t r = 0; r < n; ++r) aggregate.AddReport(PerturbBlock(block, DrawRecord(network, random), SplitBudget(block, choices), random));
  std::vector<std::vector<double>> margins;
  for (std::size_t a = 0; a < kSizes.size(); ++a) {
    std::vector<double> consistent;
    for (const auto& option : EstimateMarginal(aggregate, static_cast<int>(a), BlockMode::kCalibrated, 2.0).options) consistent.push_back(option.consistent_frequency);
    margins.push_back(consistent);
  }
  std::printf("\n**Estimation time from the aggregate** (d = 9, joint_order %d, n = %lld; milliseconds per cross-tab, "
              "mean over the %d sets; the aggregate holds the same counts whatever n)\n\n", kJointOrder,
              static_cast<long long>(n), kSetsPerK);
  std::printf("| k | cells (mean) | default | paper (LASSO) |\n|---:|---:|---:|---:|\n");
  for (int k = 2; k <= 5; ++k) {
    double cells = 0.0, mine = 0.0, theirs = 0.0;
    for (std::uint32_t set : SetsOf(k)) {
      double product = 1.0;
      for (int a : Members(set)) product *= kSizes[static_cast<std::size_t>(a)];
      cells += product / kSetsPerK;
      for (BlockMode mode : {BlockMode::kCalibrated, BlockMode::kPaper}) {
        CrossTabOptions options;
        options.mode = mode;
        const auto start = std::chrono::steady_clock::now();
        auto table = EstimateCrossTab(aggregate, block, set, options, margins);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        (mode == BlockMode::kPaper ? theirs : mine) += ms / kSetsPerK;
      }
    }
    std::printf("| %d | %.0f | %.2f | %.2f |\n", k, cells, mine, theirs);
  }
}

// Issue 26 item 1 (header, 3).
struct Explosion {
  double marginal = 0.0, consistent_marginal = 0.0, crosstab = 0.0, consistent_crosstab = 0.0;
};

Explosion ExplosionRun(const Network& network, const std::vector<double>& skips, double dirichlet, std::uint64_t seed) {
  constexpr std::int64_t kRows = 8802;
  SeededRandom random(seed);
  BlockDefinition block = Definition(1.0);
  block.joint_order = 2;
  BlockAggregate aggregate(kSizes, block.joint_order);
  std::vector<std::vector<int>> records;
  for (std::int64_t r = 0; r < kRows; ++r) {
    std::vector<int> values = DrawRecord(network, random);
    BlockChoices choices{std::vector<bool>(kSizes.size(), true), std::vector<double>(kSizes.size(), 1.0)};
    for (std::size_t a = 0; a < kSizes.size(); ++a) {
      if (UniformUnit(random) < skips[a]) {
        values[a] = -1;
        choices.answered[a] = false;
      }
      if (dirichlet > 0.0) choices.weight[a] = std::clamp(GammaDraw(dirichlet, random), kLeastWeight, kLargestWeight);
    }
    if (choices.answered_count() == 0) continue;
    aggregate.AddReport(PerturbBlock(block, values, SplitBudget(block, choices), random));
    records.push_back(values);
  }
  Explosion result;
  std::vector<std::vector<double>> margins;
  for (std::size_t a = 0; a < kSizes.size(); ++a) {
    std::vector<double> truth(static_cast<std::size_t>(kSizes[a]), 0.0);
    double answered = 0.0;
    for (const auto& record : records) {
      if (record[a] >= 0) {
        truth[static_cast<std::size_t>(record[a])] += 1.0;
        answered += 1.0;
      }
    }
    for (double& t : truth) t /= answered;
    const MarginalEstimate estimate = EstimateMarginal(aggregate, static_cast<int>(a), BlockMode::kCalibrated, 1.0);
    std::vector<double> unbiased, consistent;
    for (const auto& option : estimate.options) {
      unbiased.push_back(option.frequency);
      consistent.push_back(option.consistent_frequency);
    }
    result.marginal = std::max(result.marginal, TotalVariation(unbiased, truth));
    result.consistent_marginal = std::max(result.consistent_marginal, TotalVariation(consistent, truth));
    margins.push_back(consistent);
  }
  for (std::size_t a = 0; a < kSizes.size(); ++a) {
    for (std::size_t b = a + 1; b < kSizes.size(); ++b) {
      const std::uint32_t set = (std::uint32_t{1} << a) | (std::uint32_t{1} << b);
      std::vector<std::vector<int>> both;
      for (const auto& record : records) {
        if (record[a] >= 0 && record[b] >= 0) both.push_back(record);
      }
      const std::vector<double> truth = TrueJoint(both, set);
      auto table = EstimateCrossTab(aggregate, block, set, CrossTabOptions{}, margins);
      if (!table) continue;
      if (!table->frequency.empty()) result.crosstab = std::max(result.crosstab, TotalVariation(table->frequency, truth));
      result.consistent_crosstab = std::max(result.consistent_crosstab, TotalVariation(table->consistent, truth));
    }
  }
  return result;
}

void ExplosionTable(const Network& network) {
  struct Case {
    const char* name;
    std::vector<double> skips;
  };
  std::vector<double> none(kSizes.size(), 0.0), a = none, b = none;
  a[0] = 0.001;
  b[2] = 0.10;
  b[5] = 0.05;
  b[7] = 0.15;
  const std::vector<Case> cases = {
      {"reference: nothing skipped", none}, {"A: a0 skipped by 0.1%", a}, {"B: a2, a5, a7 skipped by 10%, 5%, 15%", b}};
  constexpr int kSeeds = 20;
  std::printf("\n**Issue 26 item 1: tiny groups** (n = 8802, e = 1, d = 9; per seed the largest AVD over the 9 marginals "
              "and the 36 pairs' cross-tabs, against the respondents' own distributions; the unbiased cross-tab of "
              "up to 16 x 12 cells has an AVD of 3-6 from the randomisation alone)\n");
  for (double dirichlet : {0.0, 1.0}) {
    Explosion reference;  // the largest of each column with nothing skipped (no small group exists)
    for (const Case& c : cases) {
      std::printf("\n%s, %s splits\n\n| seed | marginal | consistent marginal | cross-tab | consistent cross-tab |\n"
                  "|---:|---:|---:|---:|---:|\n", c.name, dirichlet > 0 ? "Dirichlet(1)" : "equal");
      int exploded = 0;
      Explosion worst;
      for (int seed = 1; seed <= kSeeds; ++seed) {
        std::fprintf(stderr, "%s, %s, seed %d\n", c.name, dirichlet > 0 ? "Dirichlet" : "equal", seed);
        const Explosion e = ExplosionRun(network, c.skips, dirichlet, 7000 + static_cast<std::uint64_t>(seed));
        std::printf("| %d | %.3g | %.3g | %.3g | %.3g |\n", seed, e.marginal, e.consistent_marginal, e.crosstab,
                    e.consistent_crosstab);
        if (&c != &cases[0]) {
          exploded += e.marginal > 1.5 * reference.marginal || e.crosstab > 1.5 * reference.crosstab ||
                              e.consistent_marginal > 1.5 * reference.consistent_marginal ||
                              e.consistent_crosstab > 1.5 * reference.consistent_crosstab
                          ? 1
                          : 0;
        }
        worst.marginal = std::max(worst.marginal, e.marginal);
        worst.consistent_marginal = std::max(worst.consistent_marginal, e.consistent_marginal);
        worst.crosstab = std::max(worst.crosstab, e.crosstab);
        worst.consistent_crosstab = std::max(worst.consistent_crosstab, e.consistent_crosstab);
      }
      std::printf("| **max** | %.3g | %.3g | %.3g | %.3g |\n", worst.marginal, worst.consistent_marginal, worst.crosstab,
                  worst.consistent_crosstab);
      if (&c == &cases[0]) {
        reference = worst;
      } else {
        std::printf("\nseeds with a column above 1.5 x the reference's largest: %d of %d\n", exploded, kSeeds);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false, explosion = false;
  int runs = 3;
  std::int64_t only_n = 0;
  double only_epsilon = 2.0, only_dirichlet = 0.0;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) {
      quick = true;
    } else if (std::strcmp(argv[i], "--explosion") == 0) {
      explosion = true;
    } else if (std::strcmp(argv[i], "--one") == 0 && i + 3 < argc) {  // --one N EPSILON DIRICHLET (0: equal splits)
      only_n = std::atoll(argv[++i]);
      only_epsilon = std::atof(argv[++i]);
      only_dirichlet = std::atof(argv[++i]);
    } else if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else {
      std::fprintf(stderr, "usage: block_bench [--quick] [--runs R] [--one N EPSILON DIRICHLET] [--explosion]\n");
      return 2;
    }
  }
  const Network network = MakeNetwork(2026);
  std::printf("# Blocks (PLDP / PMOUE): d = 9 attributes, domains {2,3,4,5,6,8,10,12,16}, a Bayesian network (tree)\n");
  if (explosion) {
    ExplosionTable(network);
    return 0;
  }
  if (only_n > 0) {
    Accuracy(only_n, only_epsilon, only_dirichlet, runs, network);
    return 0;
  }
  if (quick) {
    Accuracy(20000, 2.0, 1.0, 1, network);
    Timing(network, 20000);
    return 0;
  }
  for (double dirichlet : {0.0, 1.0}) {
    for (double epsilon : {0.5, 1.0, 2.0, 4.0}) Accuracy(100000, epsilon, dirichlet, runs, network);
  }
  Accuracy(10000, 2.0, 1.0, runs, network);
  Accuracy(1000000, 2.0, 1.0, 1, network);
  Timing(network, 100000);
  return 0;
}
