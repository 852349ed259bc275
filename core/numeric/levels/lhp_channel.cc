#include "core/numeric/levels/lhp_channel.h"

#include "core/common/portable_math.h"

namespace deniable {

double HarmonyCalibration(double epsilon) { return 1.0 + 2.0 / PortableExpm1(epsilon); }

LhpChannel::LhpChannel(std::vector<double> level_budgets, std::vector<double> bit_budgets)
    : level_budgets_(std::move(level_budgets)), bit_budgets_(std::move(bit_budgets)) {
  const double others = static_cast<double>(levels() - 1);
  for (double alpha : level_budgets_) {
    const double e = PortableExp(alpha);
    keep_level_.push_back(e / (e + others));
    other_level_.push_back(1.0 / (e + others));
  }
  for (double beta : bit_budgets_) contrast_.push_back(1.0 / HarmonyCalibration(beta));
}

double LhpChannel::LevelProbability(int t, int d) const {
  const auto i = static_cast<std::size_t>(t);
  return t == d ? keep_level_[i] : other_level_[i];
}

double LhpChannel::PlusProbability(double v, int d) const { return (1.0 + v * BitContrast(d)) / 2.0; }

double LhpChannel::ReportProbability(double v, int t, int d, int bit) const {
  const double plus = PlusProbability(v, d);
  return LevelProbability(t, d) * (bit > 0 ? plus : 1.0 - plus);
}

double LhpChannel::KeepProbability(int d) const { return (1.0 + BitContrast(d)) / 2.0; }

}  // namespace deniable
