// The mechanisms of a rating grid's rows (grid_client.h): each row's answer is
// one of L ordered levels 0..L-1 (the scale, lowest first), reported as one
// level through an L x L channel, P(report j | answer i), at the row's epsilon.
//
//   grr      generalised randomized response (core/frequency/grr.h, the
//            categorical questions' mechanism, reused as it is): the answer
//            with p = e^e / (e^e + L - 1), every other level with q. It
//            ignores the order: a wrong report is as often far as near.
//   ordinal  the exponential mechanism (McSherry & Talwar 2007) with the
//            score -|i - j|: P(j | i) = e^(-t |i - j|) / Z_i, Z_i the row's
//            sum, which favours the levels near the answer. The textbook
//            calibration t = e / (2 Delta), Delta = L - 1 (the score's
//            sensitivity), pays twice for the normalisation. Here t = e / (L - 1):
//            the worst ratio e^(t(|i'-j| - |i-j|)) Z_i' / Z_i is then exactly
//            e^(t (L-1)), reached at the two ends (i = 0, i' = L - 1, j = 0,
//            where Z_0 = Z_(L-1) by symmetry); nearer answers have a smaller
//            distance term, which their larger Z (largest in the middle) does
//            not make up. The claim does not rest on that argument: ExactEpsilon
//            computes the channel's true worst ratio, the factory checks it
//            against e and halves t until it holds (it never has to: tests show
//            every L from 2 to 11 at e from 0.01 to 20 reaches e, never more).
//            Twice the textbook t halves the standard error at small e (bench/grid_bench).
//   duchi    Duchi et al.'s numeric mechanism (core/numeric/duchi.h, reused)
//            on the positions 1..L: each row reported as one of two outputs,
//            0 (the low end of its output range) or 1 (the high end), with
//            P(1 | position x) linear in x. An L x 2 channel: it gives an
//            unbiased mean position (about half the others' standard error at
//            small e per row) but no distribution over the levels.
// Which is better for a row's mean position depends on L and e: grid_advice.h
// compares them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/common/random_source.h"
#include "core/common/result.h"
#include "core/frequency/categorical_mechanism.h"
#include "core/numeric/duchi.h"

namespace deniable {

enum class GridMechanismKind { kGrr, kOrdinal, kDuchi };

std::string GridMechanismName(GridMechanismKind kind);
Result<GridMechanismKind> ParseGridMechanismKind(const std::string& name);

// P(report j | answer i) at [i][j]: every row sums to 1; L rows, one column
// per possible report (L for grr and ordinal, 2 for duchi).
using ChannelMatrix = std::vector<std::vector<double>>;

// The channel's epsilon: the largest log ratio P(j | i) / P(j | i') over
// reports j and answers i, i' (infinite when some entry is 0).
double ExactEpsilon(const ChannelMatrix& channel);

// The ordinal mechanism's channel for L levels and the factor t.
ChannelMatrix OrdinalChannel(int levels, double t);

// One row's mechanism: L levels at epsilon; valid by construction.
class GridRowMechanism {
 public:
  // Errors: L outside 2..64, epsilon not a valid epsilon.
  static Result<std::shared_ptr<const GridRowMechanism>> Create(GridMechanismKind kind, int levels, double epsilon);

  GridMechanismKind kind() const { return kind_; }
  int levels() const { return static_cast<int>(channel_.size()); }
  // How many different reports: L, or 2 (duchi).
  int outputs() const { return static_cast<int>(channel_[0].size()); }
  // Whether the channel is invertible, so that the distribution over the levels can be estimated (not duchi).
  bool estimates_distribution() const { return outputs() == levels(); }
  double epsilon() const { return epsilon_; }
  const ChannelMatrix& channel() const { return channel_; }
  // The ordinal mechanism's t (0 for grr).
  double t() const { return t_; }

  // The reported level for answer `level` (0..L-1, checked by the caller).
  int Perturb(int level, RandomSource& random) const;

 private:
  GridRowMechanism(GridMechanismKind kind, double epsilon, double t, ChannelMatrix channel,
                   std::unique_ptr<const CategoricalMechanism> grr, std::shared_ptr<const DuchiMechanism> duchi)
      : kind_(kind), epsilon_(epsilon), t_(t), channel_(std::move(channel)), grr_(std::move(grr)),
        duchi_(std::move(duchi)) {}

  GridMechanismKind kind_;
  double epsilon_;
  double t_;
  ChannelMatrix channel_;
  std::unique_ptr<const CategoricalMechanism> grr_;  // grr: the categorical questions' mechanism
  std::shared_ptr<const DuchiMechanism> duchi_;      // duchi: the numeric questions' mechanism on [1, L]
};

}  // namespace deniable
