#include "core/numeric/levels/levels_mechanism.h"

#include <algorithm>
#include <cmath>

#include "core/common/json_fields.h"
#include "core/common/seeded_random.h"
#include "core/common/validation.h"
#include "core/numeric/levels/hiera_estimator.h"
#include "core/numeric/levels/levels_advice.h"
#include "core/numeric/levels/level_shares.h"

namespace deniable {
namespace {

constexpr double kLevelsZ95 = 1.959963984540054;

// The budgets of the two steps per variant (levels ordered lenient first).
LhpChannel ChannelOf(const LevelPartition& partition, LevelsVariant variant) {
  const std::vector<double>& epsilons = partition.level_epsilons();
  if (variant == LevelsVariant::kPaper) return LhpChannel(epsilons, epsilons);
  const double strictest = epsilons.back();
  std::vector<double> level_budgets;
  for (double epsilon : epsilons) level_budgets.push_back(epsilon - strictest);
  return LhpChannel(level_budgets, std::vector<double>(epsilons.size(), strictest));
}

// Whether the cell [y0, y1) holds y, the end cells reaching to infinity.
bool CellHolds(double y0, double y1, double y, NumericRange ends) {
  return (y0 <= y || y0 <= ends.low) && (y < y1 || y1 >= ends.high);
}

// A fixed seed from the counts: PLC's draws (mu > 1) are post-processing, and
// the same reports must give the same document to every reader.
std::uint64_t SeedOf(const std::vector<std::int64_t>& counts) {
  std::uint64_t seed = 0x9e3779b97f4a7c15ULL;
  for (std::int64_t count : counts) seed = (seed ^ static_cast<std::uint64_t>(count)) * 0x100000001b3ULL;
  return seed;
}

nlohmann::json Matrix(const std::vector<std::vector<double>>& rows) {
  nlohmann::json matrix = nlohmann::json::array();
  for (const auto& row : rows) matrix.push_back(row);
  return matrix;
}

}  // namespace

std::string LevelsVariantName(LevelsVariant variant) {
  return variant == LevelsVariant::kPaper ? "paper" : "bounded";
}

LevelsMechanism::LevelsMechanism(LevelPartition partition, LevelsVariant variant)
    : NumericMechanism(partition.range()),
      partition_(std::move(partition)),
      variant_(variant),
      channel_(ChannelOf(partition_, variant)),
      privacy_(ExactLevelsPrivacy(partition_, channel_)) {
  const int k = partition_.levels();
  atoms_.assign(2 * static_cast<std::size_t>(k), 0.0);
  for (int d = 0; d < k; ++d) {
    const double calibration = HarmonyCalibration(partition_.level_epsilons()[d]);
    atoms_[AtomIndex(d, -1)] = Denormalise(-calibration);
    atoms_[AtomIndex(d, +1)] = Denormalise(calibration);
  }
}

// Ascending: -C of the strictest level (largest C) first, +C of the strictest last.
int LevelsMechanism::AtomIndex(int level, int bit) const {
  const int k = partition_.levels();
  return bit < 0 ? k - 1 - level : k + level;
}

double LevelsMechanism::Denormalise(double v) const {
  const double half = input_range().width() / 2.0;
  return input_range().low + half + v * half;
}

nlohmann::json LevelsMechanism::ParamsToJson() const {
  return {{"name", name()},
          {"boundaries", partition_.boundaries()},
          {"epsilons", partition_.interval_epsilons()},
          {"variant", LevelsVariantName(variant_)}};
}

NumericRange LevelsMechanism::output_range() const { return {atoms_.front(), atoms_.back()}; }

double LevelsMechanism::OutputProbability(double x, double y0, double y1) const {
  const double v = partition_.Normalise(x);
  const int t = partition_.LevelOf(x);
  const NumericRange ends = output_range();
  double probability = 0.0;
  for (int d = 0; d < partition_.levels(); ++d) {
    for (int bit : {+1, -1}) {
      if (CellHolds(y0, y1, atoms_[AtomIndex(d, bit)], ends)) probability += channel_.ReportProbability(v, t, d, bit);
    }
  }
  return probability;
}

double LevelsMechanism::MeanVariance(double x, int reuse) const {
  const double v = partition_.Normalise(x);
  const int t = partition_.LevelOf(x);
  const int k = partition_.levels();
  double second_moment = 0.0;
  for (int d = 0; d < k; ++d) {
    const double own = channel_.Calibration(d);
    double conversions = 0.0;
    for (int j = d + 1; j <= std::min(k - 1, d + reuse - 1); ++j) {
      conversions += channel_.Calibration(j) * channel_.Calibration(j) - own * own;
    }
    second_moment += channel_.LevelProbability(t, d) * (own * own + conversions / (reuse * reuse));
  }
  const double half = input_range().width() / 2.0;
  return half * half * (second_moment - v * v);
}

std::vector<double> LevelsMechanism::PerturbValid(double answer, RandomSource& random) const {
  const int k = partition_.levels();
  const int t = partition_.LevelOf(answer);
  int reported = t;
  if (k > 1 && !Bernoulli(random, channel_.LevelProbability(t, t))) {
    // Any other level, uniformly: draw among k - 1 and skip the true one.
    reported = static_cast<int>(UniformBelow(random, static_cast<std::uint64_t>(k - 1)));
    if (reported >= t) ++reported;
  }
  const double v = partition_.Normalise(answer);
  int bit = Bernoulli(random, (1.0 + v) / 2.0) ? +1 : -1;
  if (!Bernoulli(random, channel_.KeepProbability(reported))) bit = -bit;
  return {atoms_[AtomIndex(reported, bit)]};
}

std::optional<nlohmann::json> LevelsMechanism::Advice(std::int64_t respondents) const {
  return LevelsAdvice(*this, respondents);
}

nlohmann::json LevelsMechanism::Describe() const {
  const int k = partition_.levels();
  nlohmann::json levels = nlohmann::json::array();
  for (int t = 0; t < k; ++t) {
    nlohmann::json intervals = nlohmann::json::array();
    for (int i = 0; i < partition_.intervals(); ++i) {
      if (partition_.LevelOfInterval(i) != t) continue;
      const NumericRange ends = partition_.IntervalRange(i);
      intervals.push_back({{"low", ends.low}, {"high", ends.high}, {"closed_high", i + 1 == partition_.intervals()}});
    }
    levels.push_back({{"level", t + 1},
                      {"epsilon", partition_.level_epsilons()[t]},
                      {"intervals", intervals},
                      {"level_budget", channel_.level_budgets()[t]},
                      {"bit_budget", channel_.bit_budgets()[t]},
                      {"level_kept", channel_.LevelProbability(t, t)},
                      {"bit_kept", channel_.KeepProbability(t)}});
  }
  nlohmann::json reports = nlohmann::json::array();
  for (int d = 0; d < k; ++d) {
    for (int bit : {-1, +1}) reports.push_back({{"value", atoms_[AtomIndex(d, bit)]}, {"level", d + 1}, {"bit", bit}});
  }
  const double claimed = partition_.level_epsilons().front();
  return {{"variant", LevelsVariantName(variant_)},
          {"levels", levels},
          {"reports", reports},
          {"exact_epsilon", privacy_.epsilon},
          {"paper_claimed_epsilon", claimed},
          {"pair_epsilons", Matrix(privacy_.pair)},
          {"paper_claimed_pair_epsilons", Matrix(privacy_.claimed)},
          {"note", variant_ == LevelsVariant::kPaper
                       ? "the published LHP: the paper (Hao et al. 2023, Theorem 2) claims max(eps_t, eps_t') for "
                         "answers in levels t and t' (" + FormatNumber(claimed) + " overall), bounding the level and "
                         "the bit separately; the report <level, bit> together is exactly " +
                         FormatNumber(std::round(privacy_.epsilon * 1000) / 1000) +
                         "-LDP, and that is its epsilon (pair_epsilons: the exact worst case per pair of levels)"
                       : "the bounded variant: the level by GRR at eps_t - eps_min and the bit at eps_min, so every "
                         "pair of answers in levels t and t' is max(eps_t, eps_t')-indistinguishable, as the paper "
                         "claims for its own (pair_epsilons: exact); every bit is as noisy as the strictest level's"}};
}

Result<nlohmann::json> LevelsMechanism::EstimateFromAtoms(const std::vector<std::int64_t>& counts,
                                                          const AtomEstimateOptions& options) const {
  const int k = partition_.levels();
  if (counts.size() != atoms_.size()) return MakeError("levels: counts for every report value are needed");
  LevelBitCounts bits{std::vector<std::int64_t>(k), std::vector<std::int64_t>(k)};
  std::vector<std::int64_t> reported(k);
  std::vector<double> keep;
  for (int d = 0; d < k; ++d) {
    bits.plus[d] = counts[AtomIndex(d, +1)];
    bits.minus[d] = counts[AtomIndex(d, -1)];
    reported[d] = bits.plus[d] + bits.minus[d];
    keep.push_back(channel_.KeepProbability(d));
  }
  SeededRandom random(SeedOf(counts));
  DENIABLE_ASSIGN_OR_RETURN(auto hiera, EstimateHierA(bits, keep, {options.reuse, options.clamp}, random));
  DENIABLE_ASSIGN_OR_RETURN(auto shares, EstimateLevelShares(channel_, reported, options.target));

  const double half = input_range().width() / 2.0;
  const double mean = Denormalise(hiera.mean);
  const double se = half * std::sqrt(hiera.variance);
  // HierA's variance is the sample variance of the calibrated bits over n: the
  // population's (sampling and randomisation; respondents are draws). For
  // these respondents alone it would be that less the answers' own variance
  // over n, which one-bit reports do not identify (they carry the answer only
  // linearly): the population interval is given, and covers these
  // respondents' mean at least as often.
  nlohmann::json mean_json = {{"value", mean}, {"std_error", se}, {"ci_low", mean - kLevelsZ95 * se},
                              {"ci_high", mean + kLevelsZ95 * se}, {"note", nullptr}};
  if (options.target == IntervalTarget::kRespondents) {
    mean_json["note"] = "the population interval (wider): the reports' one bit says nothing about how the answers "
                        "spread, so no narrower interval for these respondents' mean is honest";
  }
  if (hiera.clamped_any) {
    mean_json["std_error"] = nullptr;
    mean_json["ci_low"] = nullptr;
    mean_json["ci_high"] = nullptr;
    mean_json["note"] = "clamped (the paper's mode): clamping a column's debiased counts biases the mean, so no "
                        "honest interval exists; unclamped (the default) it is unbiased with an interval";
  }
  const nlohmann::json description = Describe();
  nlohmann::json levels = nlohmann::json::array();
  for (int t = 0; t < k; ++t) {
    const LevelShare& share = shares[t];
    const double low = std::clamp(share.value - kLevelsZ95 * share.std_error, 0.0, 1.0);
    const double high = std::clamp(share.value + kLevelsZ95 * share.std_error, 0.0, 1.0);
    levels.push_back({{"level", t + 1},
                      {"epsilon", partition_.level_epsilons()[t]},
                      {"intervals", description["levels"][t]["intervals"]},
                      {"reported", reported[t]},
                      {"share", std::clamp(share.value, 0.0, 1.0)},
                      {"share_unclipped", share.value},
                      {"std_error", share.std_error},
                      {"ci_low", low},
                      {"ci_high", high}});
  }
  nlohmann::json columns = nlohmann::json::array();
  for (int j = 0; j < k; ++j) {
    const HierAColumn& column = hiera.columns[j];
    columns.push_back({{"level", j + 1}, {"size", column.size}, {"sum", column.sum}, {"clamped", column.clamped}});
  }
  return nlohmann::json{{"method", "hiera"},
                        {"mu", options.reuse},
                        {"clamp", options.clamp},
                        {"interval_for", IntervalForJson(options.target)},
                        {"mean", mean_json},
                        {"levels", levels},
                        {"columns", columns}};
}

Result<std::unique_ptr<const LevelsMechanism>> CreateLevels(NumericRange range, std::vector<double> boundaries,
                                                             std::vector<double> epsilons, LevelsVariant variant) {
  DENIABLE_ASSIGN_OR_RETURN(auto partition, LevelPartition::Create(range, std::move(boundaries), std::move(epsilons)));
  std::unique_ptr<const LevelsMechanism> mechanism(new LevelsMechanism(std::move(partition), variant));
  if (*mechanism->epsilon() > kMaxEpsilon) {
    return MakeError("epsilons: the report <level, bit> would be " + FormatNumber(*mechanism->epsilon()) +
                     "-LDP, above the largest epsilon accepted (" + FormatNumber(kMaxEpsilon) + "): lower the budgets");
  }
  DENIABLE_TRY(RequireFiniteOutputRange(*mechanism));
  return mechanism;
}

namespace {

Result<std::vector<double>> ReadNumbers(const nlohmann::json& object, const char* field, bool required,
                                        const std::string& where) {
  const std::string path = JoinPath(where, field);
  if (!object.contains(field)) {
    if (required) return MakeError(path + ": required field is missing");
    return std::vector<double>{};
  }
  const auto& array = object.at(field);
  if (!array.is_array()) return MakeError(path + ": must be an array of numbers, but is " + array.dump());
  if (array.size() > static_cast<std::size_t>(kMaxLevelIntervals)) {
    return MakeError(path + ": at most " + std::to_string(kMaxLevelIntervals) + " numbers");
  }
  std::vector<double> numbers;
  for (std::size_t i = 0; i < array.size(); ++i) {
    if (!array[i].is_number() || !std::isfinite(array[i].get<double>())) {
      return MakeError(path + "[" + std::to_string(i) + "]: must be a finite number, but is " + array[i].dump());
    }
    numbers.push_back(array[i].get<double>());
  }
  return numbers;
}

}  // namespace

Result<std::unique_ptr<const LevelsMechanism>> ParseLevelsParams(const nlohmann::json& object, NumericRange range,
                                                                  const std::string& where) {
  DENIABLE_TRY(RequireObject(object, where));
  DENIABLE_TRY(RejectUnknownFields(object, {"name", "boundaries", "epsilons", "variant"}, where));
  DENIABLE_ASSIGN_OR_RETURN(auto boundaries, ReadNumbers(object, "boundaries", false, where));
  DENIABLE_ASSIGN_OR_RETURN(auto epsilons, ReadNumbers(object, "epsilons", true, where));
  DENIABLE_ASSIGN_OR_RETURN(auto variant_name, ReadString(object, "variant", 16, false, where));
  LevelsVariant variant = LevelsVariant::kPaper;
  if (variant_name == "bounded") {
    variant = LevelsVariant::kBounded;
  } else if (!variant_name.empty() && variant_name != "paper") {
    return MakeError(JoinPath(where, "variant") + ": must be \"paper\" or \"bounded\", but is \"" + variant_name +
                     "\"");
  }
  auto mechanism = CreateLevels(range, std::move(boundaries), std::move(epsilons), variant);
  // CreateLevels's errors start with the field they are about ("epsilons[2]: ...").
  if (!mechanism) return MakeError(where + "." + mechanism.error());
  return mechanism;
}

Result<nlohmann::json> MechanismEstimateFromAtoms(const NumericMechanism& mechanism,
                                                  const std::vector<std::int64_t>& counts,
                                                  const NumericMechanism::AtomEstimateOptions& options) {
  if (const auto* levels = dynamic_cast<const LevelsMechanism*>(&mechanism)) {
    return levels->EstimateFromAtoms(counts, options);
  }
  return MakeError("this mechanism has no estimates of its own");
}

std::optional<nlohmann::json> MechanismAdvice(const NumericMechanism& mechanism, std::int64_t respondents) {
  if (const auto* levels = dynamic_cast<const LevelsMechanism*>(&mechanism)) return levels->Advice(respondents);
  return std::nullopt;
}

}  // namespace deniable
