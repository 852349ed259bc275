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
// The coefficients are the average of the model's chains (kind default 8).
//
// --coverage R: the model's coverage of run-to-run variation instead. The
// same respondents (a fixed table) are trained R times, each in another
// arrival order with another randomisation (seeds 1..R); the run-to-run mean
// is the average of the R published coefficients. Per coefficient (raw
// units): least squares on the rows, the run-to-run mean and sd, the median
// 95% half-width and the share of runs whose interval covers the run-to-run
// mean (nominal 95%; binomial sd sqrt(.95 .05 / R)), and the baseline in the
// same run: one chain (the former design) with its former statement, the
// estimate +- 1.96 x the spread of the averaged iterates (the intercept's
// rescaled from the normalised one, ignoring the slopes).
// Run: build/regression_bench [--quick] [--fair FILE] [--coverage R]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "core/common/seeded_random.h"
#include "core/kinds/numeric/numeric_truth.h"
#include "core/kinds/linear_regression/model_gradient.h"
#include "core/kinds/linear_regression/model_results.h"
#include "core/kinds/linear_regression/model_rounds.h"
#include "core/kinds/linear_regression/model_chains.h"

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

// The respondents in `records`' order, each answering against the current
// round's chain's coefficients, as the page does (the server's step per round
// timed apart from the clients' work when asked).
ModelAggregate Train(const ModelDefinition& model, const NumericMechanism& mechanism, long long batch,
                     const std::vector<ModelRecord>& records, std::uint64_t seed, double* client_seconds = nullptr,
                     double* server_seconds = nullptr) {
  ModelAggregate aggregate(std::make_shared<const ModelDefinition>(model), batch);
  std::vector<std::vector<double>> chains(static_cast<std::size_t>(model.chains()),
                                          std::vector<double>(static_cast<std::size_t>(model.components()), 0.0));
  SeededRandom random(seed);
  for (const auto& record : records) {
    const long long round = aggregate.CurrentRound();
    std::vector<double>& coefficients = chains[static_cast<std::size_t>(ChainOfRound(round, model.chains()).chain)];
    const auto start = Clock::now();
    const auto wire = PerturbModelAnswer(model, mechanism, {record, round, coefficients}, random).value();
    if (client_seconds) *client_seconds += std::chrono::duration<double>(Clock::now() - start).count();
    aggregate.Add(GradientResponse(round, wire["component"].get<int>(), wire["value"].get<double>()));
    if (aggregate.CurrentRound() != round) {  // the round closed: one step of its chain (the server replays these)
      const auto update = Clock::now();
      coefficients = StepModel(model, round, aggregate.rounds().at(round), coefficients).coefficients;
      if (server_seconds) *server_seconds += std::chrono::duration<double>(Clock::now() - update).count();
    }
  }
  return aggregate;
}

ModelDefinition BenchModel(const Table& table, double epsilon, int chains) {
  ModelDefinition model;
  model.target = "y";
  for (std::size_t j = 0; j < table.feature_ranges.size(); ++j) model.features.push_back("x" + std::to_string(j + 1));
  model.epsilon = epsilon;
  model.feature_ranges = table.feature_ranges;
  model.target_range = table.target_range;
  model.declared_chains = chains;
  return model;
}

void Run(const std::string& data, const Table& table, double epsilon) {
  const ModelDefinition model = BenchModel(table, epsilon, kDefaultModelChains);
  const auto mechanism = GradientMechanism(model).value();
  const long long batch = ModelBatch(model, *mechanism);
  double client_seconds = 0.0, server_seconds = 0.0;
  const ModelAggregate aggregate = Train(model, *mechanism, batch, table.train, 17, &client_seconds, &server_seconds);
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

// The former statement of one chain: the sd of the averaged iterates, in raw
// units by rescaling each normalised one alone (the intercept's by w_y / 2).
std::vector<double> FormerSpreadRaw(const ModelDefinition& model, const ModelTrajectory& trajectory,
                                    const std::vector<double>& mean) {
  const std::size_t rounds = trajectory.steps.size(), first = rounds / 2;
  std::vector<double> spread(mean.size(), 0.0);
  if (rounds - first < 2) return spread;
  for (std::size_t r = first; r < rounds; ++r) {
    for (std::size_t j = 0; j < mean.size(); ++j) spread[j] += std::pow(trajectory.steps[r].coefficients[j] - mean[j], 2);
  }
  for (std::size_t j = 0; j < spread.size(); ++j) {
    spread[j] = std::sqrt(spread[j] / static_cast<double>(rounds - first - 1)) * model.target_range.width() /
                (j == 0 ? 2.0 : model.feature_ranges[j - 1].width());
  }
  return spread;
}

struct Runs {
  std::vector<std::vector<double>> estimate, half_width;  // per run, per coefficient (raw)
  double test_mse = 0.0;                                  // averaged over runs
  long long rounds_per_chain = 0;
};

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// Per coefficient: the run-to-run mean, sd, median half-width and the share of runs covering the mean.
void PrintCoverage(const Runs& runs, std::size_t j, const char* prefix) {
  const auto count = static_cast<double>(runs.estimate.size());
  double mean = 0.0, squares = 0.0, covered = 0.0;
  std::vector<double> widths;
  for (const auto& estimate : runs.estimate) mean += estimate[j] / count;
  for (std::size_t r = 0; r < runs.estimate.size(); ++r) {
    squares += std::pow(runs.estimate[r][j] - mean, 2);
    widths.push_back(runs.half_width[r][j]);
    covered += std::fabs(runs.estimate[r][j] - mean) <= runs.half_width[r][j] ? 1.0 : 0.0;
  }
  std::printf("%s %.4g | %.3g | %.3g | %.1f%% |", prefix, mean, std::sqrt(squares / (count - 1.0)), Median(widths),
              100.0 * covered / count);
}

void Coverage(const std::string& data, const Table& table, double epsilon, int orders) {
  const ModelDefinition chained = BenchModel(table, epsilon, kDefaultModelChains), single = BenchModel(table, epsilon, 1);
  const auto mechanism = GradientMechanism(chained).value();
  const long long batch = ModelBatch(chained, *mechanism);
  Runs after, before;
  for (int order = 1; order <= orders; ++order) {
    std::vector<ModelRecord> records = table.train;
    SeededRandom shuffle(1000 + static_cast<std::uint64_t>(order));
    for (std::size_t i = records.size(); i > 1; --i) std::swap(records[i - 1], records[UniformBelow(shuffle, i)]);
    const nlohmann::json result =
        ModelResultToJson(chained, Train(chained, *mechanism, batch, records, static_cast<std::uint64_t>(order)));
    const auto& coefficients = result.at("coefficients");
    if (!coefficients.is_object() || !coefficients.at("interval_raw").is_array()) {
      std::printf("| %s | %zu | %.2g | %lld | too few rounds for every chain: no interval |\n", data.c_str(),
                  records.size(), epsilon, batch);
      return;
    }
    after.estimate.push_back(coefficients.at("raw").get<std::vector<double>>());
    std::vector<double> half;
    for (const auto& pair : coefficients.at("interval_raw")) half.push_back((pair[1].get<double>() - pair[0].get<double>()) / 2);
    after.half_width.push_back(half);
    after.test_mse += TestMse(chained, table.test, coefficients.at("normalised").get<std::vector<double>>()) / orders;
    after.rounds_per_chain = result.at("rounds_completed").get<long long>() / kDefaultModelChains;
    const ModelTrajectory trajectory =
        ReplayModel(single, Train(single, *mechanism, batch, records, static_cast<std::uint64_t>(order)));
    const std::vector<double> final_b = FinalCoefficients(trajectory);
    before.estimate.push_back(RawCoefficients(single, final_b));
    std::vector<double> former = FormerSpreadRaw(single, trajectory, final_b);
    for (double& value : former) value *= 1.96;
    before.half_width.push_back(former);
    before.test_mse += TestMse(single, table.test, final_b) / orders;
  }
  const std::vector<double> least_squares = RawCoefficients(chained, LeastSquares(chained, table.train));
  for (std::size_t j = 0; j < least_squares.size(); ++j) {
    std::printf("| %s | %zu | %.2g | %lld | %lld | %s | %.4g |", data.c_str(), table.train.size(), epsilon, batch,
                after.rounds_per_chain, j == 0 ? "intercept" : ("x" + std::to_string(j)).c_str(), least_squares[j]);
    PrintCoverage(after, j, "");
    PrintCoverage(before, j, "");
    if (j == 0) {
      std::printf(" %.4f / %.4f / %.4f |\n", after.test_mse, before.test_mse,
                  TestMse(chained, table.test, LeastSquares(chained, table.train)));
    } else {
      std::printf(" |\n");
    }
    std::fflush(stdout);
  }
}

// Fair's table with one feature kept (e.g. 4: education).
Table OneFeature(const Table& table, std::size_t feature) {
  Table kept;
  kept.target_range = table.target_range;
  kept.feature_ranges = {table.feature_ranges[feature]};
  for (const auto* rows : {&table.train, &table.test}) {
    auto& into = rows == &table.train ? kept.train : kept.test;
    for (const auto& record : *rows) into.push_back({{record.features[feature]}, record.target});
  }
  return kept;
}

int CoverageMain(const std::string& fair, int orders, bool quick) {
  std::printf("Coverage of run-to-run variation: %d arrival orders of the same respondents (seeds 1..%d); binomial sd "
              "of a 95%% coverage %.1f points\n\n", orders, orders, 100.0 * std::sqrt(0.95 * 0.05 / orders));
  std::printf("| data | n | eps | batch | rounds per chain | coefficient | least squares | %d chains: run mean | run sd | "
              "median half-width | covers run mean | 1 chain (former): run mean | run sd | median 1.96 x spread | "
              "covers run mean | test MSE: chains / 1 chain / least squares |\n", kDefaultModelChains);
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  Coverage("synthetic", Synthetic(2, quick ? 20000 : 100000, 321), 1.0, orders);
  if (!quick) Coverage("synthetic", Synthetic(5, 100000, 322), 1.0, orders);
  if (!fair.empty()) {
    Table rows, resampled;
    if (!ReadFair(fair, rows, 0) || !ReadFair(fair, resampled, 49116)) {
      std::fprintf(stderr, "cannot read %s\n", fair.c_str());
      return 1;
    }
    Coverage("Fair, educ only (resampled)", OneFeature(resampled, 4), 1.0, orders);
    Coverage("Fair (resampled)", resampled, 1.0, orders);
    if (!quick) Coverage("Fair (rows)", rows, 4.0, orders);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  std::string fair;
  int orders = 0;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    else if (std::strcmp(argv[i], "--fair") == 0 && i + 1 < argc) fair = argv[++i];
    else if (std::strcmp(argv[i], "--coverage") == 0 && i + 1 < argc) orders = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: regression_bench [--quick] [--fair FILE] [--coverage R]\n");
      return 2;
    }
  }
  if (orders >= 2) return CoverageMain(fair, orders, quick);
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
