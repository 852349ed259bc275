// Private linear regression across rounds (seed 003 §5, the linear_regression
// kind) against non-private least squares, by epsilon:
//   synthetic: x uniform on [-1, 1]^d, y = b . (1, x) + Normal(0, 0.1) clipped
//     to [-1, 1] (b fixed, seed 5, |b_j| <= 1/sqrt(d)), d = 5, 10, 20, n = 10^4,
//     10^5, 10^6 (the respondents; a held-out test set of 10^4 records);
//   real: Fair's affairs survey (Fair 1978, J. Political Economy; 6,366
//     married women, Redbook 1974; as shipped in Debian's python3-statsmodels,
//     not in this repository: bench/fetch-fair-data.sh extracts it), target
//     rate_marriage (1-5), 7 features; its rows (80% train, 20% test) and the
//     train rows resampled to 10^5 and 10^6 respondents.
// Each row: rounds (batch by the kind's default rule), prediction MSE on the
// test set (normalised target) of the private model (Polyak-averaged over the
// last half of rounds), of least squares on the training rows and of
// predicting the mean; time of the server's update step per round and per
// report on the client (native).
// Run: build/regression_bench [--quick] [--fair FILE]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "core/common/seeded_random.h"
#include "core/numeric/numeric_truth.h"
#include "core/kinds/regression/model_gradient.h"
#include "core/kinds/regression/model_results.h"
#include "core/kinds/regression/model_rounds.h"

using namespace deniable;
using Clock = std::chrono::steady_clock;

namespace {

struct Table {
  std::vector<ModelRecord> train, test;
  std::vector<NumericRange> feature_ranges;
  NumericRange target_range;
};

Table Synthetic(int d, int n, std::uint64_t seed) {
  SeededRandom coefficients_random(5);
  std::vector<double> b(static_cast<std::size_t>(d) + 1);
  for (double& value : b) value = (2.0 * UniformUnit(coefficients_random) - 1.0) / std::sqrt(static_cast<double>(d));
  SeededRandom random(seed);
  auto record = [&] {
    ModelRecord r;
    double y = b[0];
    for (int j = 0; j < d; ++j) {
      r.features.push_back(2.0 * UniformUnit(random) - 1.0);
      y += b[static_cast<std::size_t>(j) + 1] * r.features.back();
    }
    r.target = std::clamp(y + 0.1 * StandardNormal(random), -1.0, 1.0);
    return r;
  };
  Table table;
  for (int i = 0; i < n; ++i) table.train.push_back(record());
  for (int i = 0; i < 10000; ++i) table.test.push_back(record());
  table.feature_ranges.assign(static_cast<std::size_t>(d), {-1.0, 1.0});
  table.target_range = {-1.0, 1.0};
  return table;
}

// Fair's affairs: rate_marriage by age, yrs_married, children, religious, educ, occupation, affairs (clipped at 10).
bool ReadFair(const std::string& path, Table& table, int respondents) {
  std::ifstream in(path);
  if (!in) return false;
  std::string line;
  std::getline(in, line);  // header
  std::vector<ModelRecord> rows;
  while (std::getline(in, line)) {
    std::stringstream fields(line);
    std::vector<double> values;
    std::string field;
    while (std::getline(fields, field, ',')) values.push_back(std::stod(field));
    if (values.size() != 9) continue;
    rows.push_back({{values[1], values[2], values[3], values[4], values[5], values[6], std::min(values[8], 10.0)}, values[0]});
  }
  SeededRandom random(11);
  for (std::size_t i = rows.size(); i > 1; --i) std::swap(rows[i - 1], rows[UniformBelow(random, i)]);
  const std::size_t cut = rows.size() * 4 / 5;
  std::vector<ModelRecord> train(rows.begin(), rows.begin() + static_cast<long>(cut));
  table.test.assign(rows.begin() + static_cast<long>(cut), rows.end());
  if (respondents <= 0) {
    table.train = train;
  } else {
    for (int i = 0; i < respondents; ++i) table.train.push_back(train[UniformBelow(random, train.size())]);
  }
  table.feature_ranges = {{17.5, 42}, {0.5, 23}, {0, 5.5}, {1, 4}, {9, 20}, {1, 6}, {0, 10}};
  table.target_range = {1, 5};
  return !rows.empty();
}

double TestMse(const ModelDefinition& model, const std::vector<ModelRecord>& test, const std::vector<double>& b) {
  double total = 0.0;
  for (const auto& record : test) {
    const auto x = NormalisedFeatures(model, record);
    double predicted = 0.0;
    for (std::size_t j = 0; j < x.size(); ++j) predicted += b[j] * x[j];
    total += std::pow(predicted - NormalisedTarget(model, record), 2);
  }
  return total / static_cast<double>(test.size());
}

std::vector<double> LeastSquares(const ModelDefinition& model, const std::vector<ModelRecord>& train) {
  const auto n = static_cast<Eigen::Index>(train.size());
  const auto d = static_cast<Eigen::Index>(model.components());
  Eigen::MatrixXd x(n, d);
  Eigen::VectorXd y(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto features = NormalisedFeatures(model, train[static_cast<std::size_t>(i)]);
    for (Eigen::Index j = 0; j < d; ++j) x(i, j) = features[static_cast<std::size_t>(j)];
    y(i) = NormalisedTarget(model, train[static_cast<std::size_t>(i)]);
  }
  const Eigen::VectorXd b = (x.transpose() * x).ldlt().solve(x.transpose() * y);
  return std::vector<double>(b.data(), b.data() + d);
}

void Run(const std::string& data, const Table& table, double epsilon) {
  ModelDefinition model;
  model.target = "y";
  for (std::size_t j = 0; j < table.feature_ranges.size(); ++j) model.features.push_back("x" + std::to_string(j + 1));
  model.epsilon = epsilon;
  model.feature_ranges = table.feature_ranges;
  model.target_range = table.target_range;
  const auto mechanism = GradientMechanism(model).value();
  const long long batch = ModelBatch(model, *mechanism);
  ModelAggregate aggregate(model.components(), batch);
  std::vector<double> coefficients(static_cast<std::size_t>(model.components()), 0.0);
  SeededRandom random(17);
  double client_seconds = 0.0, server_seconds = 0.0;
  for (const auto& record : table.train) {
    const long long round = aggregate.CurrentRound();
    const auto start = Clock::now();
    const auto wire = PerturbModelAnswer(model, *mechanism, {record, round, coefficients}, random).value();
    client_seconds += std::chrono::duration<double>(Clock::now() - start).count();
    aggregate.Add(GradientResponse(round, wire["component"].get<int>(), wire["value"].get<double>()));
    if (aggregate.CurrentRound() != round) {  // the round closed: one step (the server replays these)
      const auto update = Clock::now();
      coefficients = StepModel(model, round, aggregate.rounds().at(round), coefficients).coefficients;
      server_seconds += std::chrono::duration<double>(Clock::now() - update).count();
    }
  }
  const ModelTrajectory trajectory = ReplayModel(model, aggregate);
  const auto rounds = static_cast<double>(trajectory.steps.size());
  const std::vector<double> final_b = FinalCoefficients(trajectory);
  const std::vector<double> zero(static_cast<std::size_t>(model.components()), 0.0);
  std::vector<double> mean_only = zero;
  for (const auto& record : table.train) mean_only[0] += NormalisedTarget(model, record) / static_cast<double>(table.train.size());
  std::printf("| %s | %d | %zu | %.2g | %lld | %.0f | %s | %.4f | %.4f | %.3g | %.2f |\n", data.c_str(),
              model.components() - 1, table.train.size(), epsilon, batch, rounds,
              final_b.empty() ? "no round" : (std::to_string(TestMse(model, table.test, final_b)).substr(0, 6)).c_str(),
              TestMse(model, table.test, LeastSquares(model, table.train)), TestMse(model, table.test, mean_only),
              rounds > 0 ? 1e6 * server_seconds / rounds : 0.0, 1e6 * client_seconds / static_cast<double>(table.train.size()));
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  std::string fair;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    else if (std::strcmp(argv[i], "--fair") == 0 && i + 1 < argc) fair = argv[++i];
    else {
      std::fprintf(stderr, "usage: regression_bench [--quick] [--fair FILE]\n");
      return 2;
    }
  }
  const std::vector<double> epsilons = quick ? std::vector<double>{1.0, 4.0} : std::vector<double>{0.5, 1.0, 2.0, 4.0};
  const std::vector<int> dims = quick ? std::vector<int>{5} : std::vector<int>{5, 10, 20};
  const std::vector<int> sizes = quick ? std::vector<int>{10000, 100000} : std::vector<int>{10000, 100000, 1000000};
  std::printf("| data | d | n | eps | batch | rounds | MSE private | MSE least squares | MSE mean only | us per round (server step) | us per report (client) |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int d : dims) {
    for (int n : sizes) {
      const Table table = Synthetic(d, n, 100 + static_cast<std::uint64_t>(d) * 7 + static_cast<std::uint64_t>(n));
      for (double epsilon : epsilons) Run("synthetic", table, epsilon);
    }
  }
  if (!fair.empty()) {
    for (int respondents : {0, 100000, 1000000}) {
      if (quick && respondents == 1000000) continue;
      Table table;
      if (!ReadFair(fair, table, respondents)) {
        std::fprintf(stderr, "cannot read %s\n", fair.c_str());
        return 1;
      }
      for (double epsilon : epsilons) Run(respondents == 0 ? "Fair (rows)" : "Fair (resampled)", table, epsilon);
    }
  }
  return 0;
}
