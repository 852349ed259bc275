// The consistent cross-tab of a block against the unbiased cells it is made
// from (issue 26, item 2): AVD (total variation against the respondents' own
// table) of
//   unbiased    the unbiased co-occurrence estimate (joint_estimator.h; may be negative);
//   EM+IPF      the former consistent table: EM on the co-occurrence counts
//               from the product of the marginals (300 rounds), then IPF to
//               the shown marginals;
//   EM(conv)    the same EM run to 20,000 rounds, then IPF;
//   projection  the unbiased cells projected onto the tables with the shown
//               marginals in the metric of their variances (consistent_joint.h);
//   shown       what EstimateCrossTab returns now (the table the dashboard shades);
// plus, per table, the watched cells (a structural zero, a conditional share).
// Tables: constructed (3 x 2 with conditional shares 5%, 75% and a structural
// zero; 4 x 3 x 2 with a structural zero and strong dependence) and, with
// --csv, a real one: the file's rows are the population, n records drawn
// from it (bench/fetch-consistent-data.sh extracts ANES 1996 and Fair's
// affairs from Debian's python3-statsmodels into build/data/).
// Splits: equal and Dirichlet(1) (personalised); epsilon per attribute 1 unless --epsilon.
// Run: build/consistent_bench [--runs R] [--n N] [--epsilon E] [--csv FILE COLUMNS]...   (COLUMNS: a,b[,c] by header name)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "core/common/seeded_random.h"
#include "core/kinds/block/block_aggregate.h"
#include "core/kinds/block/block_marginals.h"
#include "core/kinds/block/block_truth.h"
#include "core/kinds/block/budget_split.h"
#include "core/frequency/consistent_joint.h"
#include "core/kinds/block/cross_tab.h"
#include "core/kinds/block/joint_em.h"
#include "core/kinds/block/joint_estimator.h"
#include "core/kinds/block/pmoue.h"

using namespace deniable;

namespace {

struct Table {
  std::string name;
  std::vector<int> sizes;
  std::vector<double> weights;  // the population's joint (need not sum to 1)
  std::vector<std::pair<std::string, std::size_t>> watched;  // cells to print
};

double Avd(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += std::abs(a[i] - b[i]);
  return sum / 2.0;
}

BlockDefinition Definition(const std::vector<int>& sizes, double epsilon) {
  BlockDefinition block;
  for (std::size_t a = 0; a < sizes.size(); ++a) {
    BlockAttribute attribute{"a" + std::to_string(a), "a" + std::to_string(a), {}};
    for (int b = 0; b < sizes[a]; ++b) attribute.options.push_back(std::to_string(b));
    block.attributes.push_back(attribute);
  }
  block.epsilon_per_attribute = epsilon;
  block.bounds = {0.1, 4.0};
  block.joint_order = static_cast<int>(sizes.size());
  return block;
}

std::vector<int> Digits(std::size_t cell, const std::vector<int>& sizes) {
  std::vector<int> digits(sizes.size());
  for (std::size_t a = sizes.size(); a-- > 0;) {
    digits[a] = static_cast<int>(cell % static_cast<std::size_t>(sizes[a]));
    cell /= static_cast<std::size_t>(sizes[a]);
  }
  return digits;
}

enum Method { kUnbiased, kEmIpf, kEmConverged, kEmStop, kEmSquarem, kProjection, kShown, kMethods };
const char* kNames[] = {"unbiased", "EM+IPF (before)", "EM 20000 rounds+IPF", "EM to the discrepancy+IPF", "EM SQUAREM to convergence+IPF", "projection",
                        "shown (EstimateCrossTab)"};

struct Outcome {
  std::vector<double> avd = std::vector<double>(kMethods, 0.0);
  std::vector<std::vector<double>> watched;  // [method][watched cell]
  std::vector<double> truth_watched;
  double rounds = 0.0, discrepancy = 0.0, squarem_rounds = 0.0;  // the stopped EM's steps and final discrepancy / target
};

void Run(const Table& table, std::int64_t n, double epsilon, double dirichlet, int runs) {
  const BlockDefinition block = Definition(table.sizes, epsilon);
  std::vector<double> cumulative(table.weights.size());
  std::partial_sum(table.weights.begin(), table.weights.end(), cumulative.begin());
  Outcome total;
  total.watched.assign(kMethods, std::vector<double>(table.watched.size(), 0.0));
  total.truth_watched.assign(table.watched.size(), 0.0);
  const std::uint32_t set = (std::uint32_t{1} << table.sizes.size()) - 1;
  for (int run = 0; run < runs; ++run) {
    SeededRandom random(7000 + static_cast<std::uint64_t>(run) + (dirichlet > 0 ? 500 : 0));
    BlockAggregate aggregate(table.sizes, static_cast<int>(table.sizes.size()));
    std::vector<double> truth(table.weights.size(), 0.0);
    BlockChoices choices{std::vector<bool>(table.sizes.size(), true), std::vector<double>(table.sizes.size(), 1.0)};
    for (std::int64_t r = 0; r < n; ++r) {
      const double u = UniformUnit(random) * cumulative.back();
      const std::size_t cell = std::min<std::size_t>(
          static_cast<std::size_t>(std::upper_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin()),
          cumulative.size() - 1);
      truth[cell] += 1.0 / static_cast<double>(n);
      if (dirichlet > 0.0) {
        for (double& w : choices.weight) w = std::clamp(GammaDraw(dirichlet, random), kLeastWeight, kLargestWeight);
      }
      aggregate.AddReport(PerturbBlock(block, Digits(cell, table.sizes), SplitBudget(block, choices), random));
    }
    std::vector<std::vector<double>> margins;
    for (std::size_t a = 0; a < table.sizes.size(); ++a) {
      std::vector<double> margin;
      for (const auto& option : EstimateMarginal(aggregate, static_cast<int>(a), BlockMode::kCalibrated, epsilon).options) {
        margin.push_back(option.consistent_frequency);
      }
      margins.push_back(margin);
    }
    const JointCounts joint = EstimateJoint(aggregate, set);
    std::vector<double> unbiased, variance;
    const double m = static_cast<double>(joint.n);
    for (std::size_t c = 0; c < joint.count.size(); ++c) {
      unbiased.push_back(joint.count[c] / m);
      variance.push_back(joint.variance[c] / (m * m));
    }
    std::vector<std::vector<double>> tables(kMethods);
    tables[kUnbiased] = unbiased;
    tables[kEmIpf] = FitMargins(JointByEm(aggregate, set, margins).table, table.sizes, margins);
    tables[kEmConverged] = FitMargins(JointByEm(aggregate, set, margins, nullptr, 20000).table, table.sizes, margins);
    const EmTarget target{unbiased, variance};
    const EmJoint stopped = JointByEm(aggregate, set, margins, &target, 30000);
    total.rounds += static_cast<double>(stopped.rounds) / runs;
    total.discrepancy += stopped.discrepancy / stopped.target / runs;
    tables[kEmStop] = FitMargins(stopped.table, table.sizes, margins);
    const EmTarget never{unbiased, variance, 0.0};
    const EmJoint converged = JointByEm(aggregate, set, margins, &never, 30000);
    total.squarem_rounds += static_cast<double>(converged.rounds) / runs;
    tables[kEmSquarem] = FitMargins(converged.table, table.sizes, margins);
    tables[kProjection] = ProjectOntoMargins(unbiased, variance, table.sizes, margins);
    tables[kShown] = EstimateCrossTab(aggregate, block, set, CrossTabOptions{}, margins)->consistent;
    for (int k = 0; k < kMethods; ++k) {
      total.avd[static_cast<std::size_t>(k)] += Avd(tables[static_cast<std::size_t>(k)], truth) / runs;
      for (std::size_t w = 0; w < table.watched.size(); ++w) {
        total.watched[static_cast<std::size_t>(k)][w] += tables[static_cast<std::size_t>(k)][table.watched[w].second] / runs;
      }
    }
    for (std::size_t w = 0; w < table.watched.size(); ++w) total.truth_watched[w] += truth[table.watched[w].second] / runs;
  }
  std::printf("\n**%s**, n = %lld, e = %g per attribute, %s splits (%d run%s; mean AVD; watched cells' mean)\n\n",
              table.name.c_str(), static_cast<long long>(n), epsilon, dirichlet > 0 ? "Dirichlet(1)" : "equal", runs,
              runs == 1 ? "" : "s");
  std::printf("EM to the discrepancy: %.0f steps on average, discrepancy / target %.2f; SQUAREM to convergence: %.0f steps\n\n",
              total.rounds, total.discrepancy, total.squarem_rounds);
  std::printf("| method | AVD |");
  for (const auto& w : table.watched) std::printf(" %s |", w.first.c_str());
  std::printf("\n|---|---:|");
  for (std::size_t w = 0; w < table.watched.size(); ++w) std::printf("---:|");
  std::printf("\n| truth | 0 |");
  for (double t : total.truth_watched) std::printf(" %.4f |", t);
  std::printf("\n");
  for (int k = 0; k < kMethods; ++k) {
    std::printf("| %s | %.4f |", kNames[k], total.avd[static_cast<std::size_t>(k)]);
    for (double x : total.watched[static_cast<std::size_t>(k)]) std::printf(" %.4f |", x);
    std::printf("\n");
  }
  std::fflush(stdout);
}

// Education (3) x uninsured (2): uninsured 5% of the first, 75% of the second, none of the third (a structural zero).
Table Shares() {
  const std::vector<double> rows = {0.5, 0.3, 0.2}, yes = {0.05, 0.75, 0.0};
  Table table{"3 x 2: conditional shares 5%, 75%, 0% (structural zero)", {3, 2}, {}, {}};
  for (std::size_t r = 0; r < 3; ++r) {
    table.weights.push_back(rows[r] * (1.0 - yes[r]));
    table.weights.push_back(rows[r] * yes[r]);
  }
  table.watched = {{"cell (0,1): 0.5 x 5%", 1}, {"cell (1,1): 0.3 x 75%", 3}, {"zero (2,1)", 5}};
  return table;
}

// 4 x 3 x 2: the second follows the first closely, the third the second; cell (3, 0, *) cannot occur.
Table Strong() {
  Table table{"4 x 3 x 2: strong dependence, a structural zero (3,0,*)", {4, 3, 2}, {}, {}};
  for (int a = 0; a < 4; ++a) {
    for (int b = 0; b < 3; ++b) {
      for (int c = 0; c < 2; ++c) {
        const double ab = (a == 3 && b == 0) ? 0.0 : std::exp(-2.0 * std::abs(a * 2.0 / 3.0 - b));
        table.weights.push_back(ab * (c == (b >= 1) ? 0.9 : 0.1));
      }
    }
  }
  table.watched = {{"zero (3,0,0)", 18}, {"zero (3,0,1)", 19}};
  return table;
}

// A real table: the rows of a CSV (comma or tab separated, a header) cross-classified on the named columns.
Table FromCsv(const std::string& path, const std::string& columns) {
  std::ifstream file(path);
  std::string line;
  std::getline(file, line);
  const char separator = line.find('\t') != std::string::npos ? '\t' : ',';
  auto split = [&](const std::string& text) {
    std::vector<std::string> fields;
    std::stringstream stream(text);
    std::string field;
    while (std::getline(stream, field, separator)) {
      field.erase(std::remove_if(field.begin(), field.end(), [](char ch) { return ch == '"' || ch == '\'' || ch == '\r'; }),
                  field.end());
      fields.push_back(field);
    }
    return fields;
  };
  const std::vector<std::string> header = split(line);
  std::vector<std::size_t> chosen;
  std::stringstream names(columns);
  std::string name;
  while (std::getline(names, name, ',')) {
    chosen.push_back(static_cast<std::size_t>(std::find(header.begin(), header.end(), name) - header.begin()));
  }
  std::vector<std::vector<std::string>> rows;
  std::vector<std::map<double, int>> levels(chosen.size());
  while (std::getline(file, line)) {
    const std::vector<std::string> fields = split(line);
    std::vector<std::string> row;
    for (std::size_t i = 0; i < chosen.size(); ++i) {
      row.push_back(fields.at(chosen[i]));
      levels[i][std::stod(row.back())] = 0;
    }
    rows.push_back(row);
  }
  Table table{path + " [" + columns + "], " + std::to_string(rows.size()) + " rows", {}, {}, {}};
  for (auto& level : levels) {
    int index = 0;
    for (auto& entry : level) entry.second = index++;
    table.sizes.push_back(index);
  }
  std::size_t cells = 1;
  for (int size : table.sizes) cells *= static_cast<std::size_t>(size);
  table.weights.assign(cells, 0.0);
  for (const auto& row : rows) {
    std::size_t cell = 0;
    for (std::size_t i = 0; i < row.size(); ++i) cell = cell * static_cast<std::size_t>(table.sizes[i]) + static_cast<std::size_t>(levels[i][std::stod(row[i])]);
    table.weights[cell] += 1.0;
  }
  // Watch the two cells whose conditional share (of the last attribute's last option given the rest) is most extreme.
  const std::size_t last = static_cast<std::size_t>(table.sizes.back());
  std::size_t lowest = 0, highest = 0;
  double low = 2.0, high = -1.0;
  for (std::size_t group = 0; group < cells / last; ++group) {
    double sum = 0.0;
    for (std::size_t o = 0; o < last; ++o) sum += table.weights[group * last + o];
    if (sum < 0.02 * static_cast<double>(rows.size())) continue;
    const double share = table.weights[group * last + last - 1] / sum;
    if (share < low) low = share, lowest = group * last + last - 1;
    if (share > high) high = share, highest = group * last + last - 1;
  }
  table.watched = {{"cell of lowest share " + std::to_string(static_cast<int>(std::round(low * 100))) + "%", lowest},
                   {"cell of highest share " + std::to_string(static_cast<int>(std::round(high * 100))) + "%", highest}};
  return table;
}

}  // namespace

int main(int argc, char** argv) {
  int runs = 5;
  std::int64_t n = 100000;
  double epsilon = 1.0;
  std::vector<Table> tables = {Shares(), Strong()};
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
      runs = std::max(1, std::atoi(argv[++i]));
    } else if (std::strcmp(argv[i], "--n") == 0 && i + 1 < argc) {
      n = std::atoll(argv[++i]);
    } else if (std::strcmp(argv[i], "--epsilon") == 0 && i + 1 < argc) {
      epsilon = std::atof(argv[++i]);
    } else if (std::strcmp(argv[i], "--csv") == 0 && i + 2 < argc) {
      tables.push_back(FromCsv(argv[i + 1], argv[i + 2]));
      i += 2;
    } else {
      std::fprintf(stderr, "usage: consistent_bench [--runs R] [--n N] [--epsilon E] [--csv FILE COLUMNS]...\n");
      return 2;
    }
  }
  std::printf("# Consistent cross-tabs against the unbiased cells (AVD against the respondents' own table)\n");
  for (const Table& table : tables) {
    for (double dirichlet : {0.0, 1.0}) Run(table, n, epsilon, dirichlet, runs);
  }
  return 0;
}
