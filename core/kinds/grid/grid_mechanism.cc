#include "core/kinds/grid/grid_mechanism.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/common/portable_math.h"
#include "core/common/validation.h"

namespace deniable {
namespace {

constexpr int kMaxMechanismLevels = 64;

ChannelMatrix GrrChannel(int levels, SupportProbabilities pq) {
  ChannelMatrix channel(static_cast<std::size_t>(levels), std::vector<double>(static_cast<std::size_t>(levels), pq.q));
  for (int i = 0; i < levels; ++i) channel[static_cast<std::size_t>(i)][static_cast<std::size_t>(i)] = pq.p;
  return channel;
}

}  // namespace

std::string GridMechanismName(GridMechanismKind kind) {
  switch (kind) {
    case GridMechanismKind::kGrr: return "grr";
    case GridMechanismKind::kOrdinal: return "ordinal";
    case GridMechanismKind::kDuchi: return "duchi";
  }
  return "";
}

Result<GridMechanismKind> ParseGridMechanismKind(const std::string& name) {
  if (name == "grr") return GridMechanismKind::kGrr;
  if (name == "ordinal") return GridMechanismKind::kOrdinal;
  if (name == "duchi") return GridMechanismKind::kDuchi;
  return MakeError("unknown grid mechanism \"" + name + "\" (expected \"ordinal\", \"grr\" or \"duchi\")");
}

double ExactEpsilon(const ChannelMatrix& channel) {
  double worst = 0.0;
  for (std::size_t j = 0; j < channel[0].size(); ++j) {
    double low = INFINITY, high = 0.0;
    for (const auto& row : channel) low = std::min(low, row[j]), high = std::max(high, row[j]);
    if (low <= 0.0) return INFINITY;
    worst = std::max(worst, std::log(high / low));
  }
  return worst;
}

// Portable exponentials: the channel's cumulative rows decide the reports,
// which must be the same natively and in WebAssembly.
ChannelMatrix OrdinalChannel(int levels, double t) {
  ChannelMatrix channel;
  for (int i = 0; i < levels; ++i) {
    std::vector<double> row;
    double total = 0.0;
    for (int j = 0; j < levels; ++j) {
      row.push_back(PortableExp(-t * std::abs(i - j)));
      total += row.back();
    }
    for (double& entry : row) entry /= total;
    channel.push_back(std::move(row));
  }
  return channel;
}

Result<std::shared_ptr<const GridRowMechanism>> GridRowMechanism::Create(GridMechanismKind kind, int levels,
                                                                         double epsilon) {
  if (levels < 2 || levels > kMaxMechanismLevels) {
    return MakeError("a grid row needs 2 to " + std::to_string(kMaxMechanismLevels) + " levels, but has " +
                     std::to_string(levels));
  }
  DENIABLE_TRY(ValidateEpsilon(epsilon));
  if (kind == GridMechanismKind::kGrr) {
    DENIABLE_ASSIGN_OR_RETURN(auto grr, CreateCategoricalMechanism({CategoricalKind::kGrr, levels, epsilon, 1}));
    ChannelMatrix channel = GrrChannel(levels, grr->probabilities());
    return std::shared_ptr<const GridRowMechanism>(
        new GridRowMechanism(kind, epsilon, 0.0, std::move(channel), std::move(grr), nullptr));
  }
  if (kind == GridMechanismKind::kDuchi) {
    DENIABLE_ASSIGN_OR_RETURN(auto duchi, CreateDuchi({1.0, static_cast<double>(levels)}, epsilon));
    ChannelMatrix channel;
    for (int i = 0; i < levels; ++i) {
      const double high = duchi->HighReportProbability(i + 1.0);
      channel.push_back({1.0 - high, high});
    }
    return std::shared_ptr<const GridRowMechanism>(new GridRowMechanism(
        kind, epsilon, 0.0, std::move(channel), nullptr, std::shared_ptr<const DuchiMechanism>(std::move(duchi))));
  }
  double t = epsilon / (levels - 1);
  ChannelMatrix channel = OrdinalChannel(levels, t);
  // The argument in the header says this never loops; the check keeps the claim true if it were wrong.
  while (ExactEpsilon(channel) > epsilon * (1.0 + 1e-12)) {
    t /= 2.0;
    channel = OrdinalChannel(levels, t);
  }
  return std::shared_ptr<const GridRowMechanism>(
      new GridRowMechanism(kind, epsilon, t, std::move(channel), nullptr, nullptr));
}

int GridRowMechanism::Perturb(int level, RandomSource& random) const {
  if (grr_) {
    const Support support = grr_->Perturb(level, random).value();  // level is valid: checked by the caller
    return static_cast<int>(std::find(support.begin(), support.end(), 1) - support.begin());
  }
  if (duchi_) {  // one of the output range's two ends: 1 for the high one
    const double value = duchi_->Perturb(level + 1.0, random).value().at(0);
    return value > (1.0 + levels()) / 2.0 ? 1 : 0;
  }
  const auto& row = channel_[static_cast<std::size_t>(level)];
  const double u = UniformUnit(random);
  double cumulative = 0.0;
  for (std::size_t j = 0; j + 1 < row.size(); ++j) {
    cumulative += row[j];
    if (u < cumulative) return static_cast<int>(j);
  }
  return levels() - 1;
}

}  // namespace deniable
