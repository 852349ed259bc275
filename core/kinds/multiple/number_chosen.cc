#include "core/kinds/multiple/number_chosen.h"

#include <algorithm>
#include <cmath>

#include <Eigen/Dense>

#include "core/frequency/frequency_estimator.h"
#include "core/frequency/norm_sub.h"
#include "core/kinds/open/open_intervals.h"

namespace deniable {
namespace {

// Beyond this condition number the pseudo-inverse of the channel loses the digits the estimate needs.
constexpr double kMaxCondition = 1e10;
// Past this standard error a share's 95% interval holds all of [0, 1] whatever the estimate.
constexpr double kMaxUsefulStdError = 0.5;

std::vector<double> BinomialPmf(int trials, double p) {
  std::vector<double> pmf(static_cast<std::size_t>(trials) + 1, 0.0);
  pmf[0] = 1.0;
  for (int t = 0; t < trials; ++t) {  // convolve with one Bernoulli(p) at a time: exact and stable
    for (int j = t + 1; j >= 0; --j) {
      pmf[static_cast<std::size_t>(j)] = pmf[static_cast<std::size_t>(j)] * (1.0 - p) +
                                         (j > 0 ? pmf[static_cast<std::size_t>(j) - 1] * p : 0.0);
    }
  }
  return pmf;
}

void FillIntervals(NumberChosen& result, const std::vector<double>& shares, const std::vector<double>& variances) {
  const auto consistent = NormSub(shares, 1.0);
  for (std::size_t c = 0; c < shares.size(); ++c) {
    const double se = std::sqrt(std::max(0.0, variances[c]));
    result.distribution.push_back({static_cast<int>(c), shares[c], se, shares[c] - kZ95 * se, shares[c] + kZ95 * se,
                                   consistent[c]});
  }
}

void SetMean(NumberChosen& result, double mean, double variance) {
  result.mean = mean;
  result.std_error = std::sqrt(std::max(0.0, variance));
  result.ci_low = mean - kZ95 * result.std_error;
  result.ci_high = mean + kZ95 * result.std_error;
}

}  // namespace

std::vector<std::vector<double>> OnesChannel(int options, int max_choices, SupportProbabilities pq) {
  std::vector<std::vector<double>> channel(static_cast<std::size_t>(options) + 1,
                                           std::vector<double>(static_cast<std::size_t>(max_choices) + 1, 0.0));
  for (int c = 0; c <= max_choices; ++c) {
    const auto chosen = BinomialPmf(c, pq.p), others = BinomialPmf(options - c, pq.q);
    for (int a = 0; a <= c; ++a) {
      for (int b = 0; b <= options - c; ++b) {
        channel[static_cast<std::size_t>(a + b)][static_cast<std::size_t>(c)] +=
            chosen[static_cast<std::size_t>(a)] * others[static_cast<std::size_t>(b)];
      }
    }
  }
  return channel;
}

NumberChosen NumberChosenFromOnes(const std::vector<std::int64_t>& reported_ones, int max_choices,
                                  SupportProbabilities pq, IntervalTarget target) {
  NumberChosen result;
  const int k = static_cast<int>(reported_ones.size()) - 1;
  double n = 0.0, sum = 0.0, squares = 0.0;
  for (int r = 0; r <= k; ++r) {
    const double count = static_cast<double>(reported_ones[static_cast<std::size_t>(r)]);
    n += count, sum += count * r, squares += count * r * r;
  }
  if (n == 0.0) return result;
  const double gap = pq.p - pq.q;
  const double mean_ones = sum / n;
  const double mean = (mean_ones - k * pq.q) / gap;
  if (target == IntervalTarget::kPopulation) {
    const double sample_variance = n > 1.0 ? (squares - n * mean_ones * mean_ones) / (n - 1.0) : 0.0;
    SetMean(result, mean, sample_variance / (n * gap * gap));
  } else {  // the sizes fixed: the bits' own variance at the estimated mean size
    const double c = std::clamp(mean, 0.0, static_cast<double>(max_choices));
    SetMean(result, mean, (c * pq.p * (1.0 - pq.p) + (k - c) * pq.q * (1.0 - pq.q)) / (n * gap * gap));
  }

  const auto channel = OnesChannel(k, max_choices, pq);
  Eigen::MatrixXd t(k + 1, max_choices + 1);
  for (int r = 0; r <= k; ++r) {
    for (int c = 0; c <= max_choices; ++c) t(r, c) = channel[static_cast<std::size_t>(r)][static_cast<std::size_t>(c)];
  }
  Eigen::JacobiSVD<Eigen::MatrixXd> svd(t, Eigen::ComputeThinU | Eigen::ComputeThinV);
  const auto& singular = svd.singularValues();
  const double condition = singular(0) / singular(singular.size() - 1);
  if (!(condition <= kMaxCondition)) {
    result.note = "no estimate of the distribution: at this epsilon the reports' number of 1s says almost nothing "
                  "about the number chosen (the channel's condition number is " + std::to_string(condition) +
                  "), so no honest interval exists; the mean above is still estimated";
    return result;
  }
  const Eigen::MatrixXd inverse = svd.matrixV() * singular.cwiseInverse().asDiagonal() * svd.matrixU().transpose();
  Eigen::VectorXd lambda(k + 1);
  for (int r = 0; r <= k; ++r) lambda(r) = static_cast<double>(reported_ones[static_cast<std::size_t>(r)]) / n;
  const Eigen::VectorXd shares = inverse * lambda;
  const Eigen::MatrixXd covariance =
      inverse * (Eigen::MatrixXd(lambda.asDiagonal()) - lambda * lambda.transpose()) * inverse.transpose() / n;
  std::vector<double> estimates, variances;
  for (int c = 0; c <= max_choices; ++c) {
    estimates.push_back(shares(c));
    variances.push_back(covariance(c, c));
  }
  // Well-conditioned is not informative: at k = m = 8 and epsilon 1 the inverse's standard errors reach 10^7
  // (build/kinds_real_data on a real checklist). A share's 95% interval wider than all of [0, 1] says nothing.
  const double largest = *std::max_element(variances.begin(), variances.end());
  if (!(std::sqrt(largest) <= kMaxUsefulStdError)) {
    result.note = "no estimate of the distribution: at this epsilon the reports' number of 1s says too little about "
                  "the number chosen (a share's standard error would be up to " + std::to_string(std::sqrt(largest)) +
                  ", its interval wider than 0 to 1), so no useful interval exists; the mean above is still estimated";
    return result;
  }
  FillIntervals(result, estimates, variances);
  result.note = "the intervals of the distribution are the population's (for these respondents they are an upper "
                "bound); each is wide when the reports' number of 1s says little about the number chosen";
  return result;
}

NumberChosen NumberChosenFromDummies(const std::vector<std::int64_t>& counts, int options, int padding,
                                     SupportProbabilities pq) {
  NumberChosen result;
  double n = 0.0, real = 0.0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    n += static_cast<double>(counts[i]);
    if (i < static_cast<std::size_t>(options)) real += static_cast<double>(counts[i]);
  }
  if (n == 0.0) return result;
  const double gap = pq.p - pq.q;
  // The mean: sum of the shares, (real - n k q) / (n gap), the real reports' count binomial.
  const double real_share = real / n;
  SetMean(result, (real - n * options * pq.q) / (n * gap), real_share * (1.0 - real_share) / (n * gap * gap));
  // G(t) = P(s <= t) from dummy d_(l - t), at output index k + l - t - 1; G(-1) = 0, G(l) = 1.
  const auto report_share = [&](int t) {  // lambda of G(t)'s output, 0 and 1 at the ends (no output)
    return t < 0 || t >= padding ? 0.0 : static_cast<double>(counts[static_cast<std::size_t>(options + padding - t - 1)]) / n;
  };
  const auto g = [&](int t) { return t < 0 ? 0.0 : t >= padding ? 1.0 : (report_share(t) - pq.q) / gap; };
  std::vector<double> shares, variances;
  for (int t = 0; t <= padding; ++t) {
    shares.push_back(g(t) - g(t - 1));
    const double a = report_share(t), b = report_share(t - 1);  // 0 where G is a constant
    variances.push_back((a * (1.0 - a) + b * (1.0 - b) + 2.0 * a * b) / (n * gap * gap));
  }
  FillIntervals(result, shares, variances);
  // The two ends are single counts: P(none) = G(0) from one dummy, P(l or more) = 1 - G(l - 1) from another. Each
  // count is Binomial(n, lambda) for the population, so lambda's exact interval, mapped, covers at least 95% at
  // every n; the normal one covered 0.86-0.93 at n = 200 on a real checklist's sizes (multiple_share_interval_test).
  const auto exact = [&](int t) {  // G(t)'s interval from its dummy's count
    const auto count = counts[static_cast<std::size_t>(options + padding - t - 1)];
    const OpenInterval lambda = ShareInterval(count, static_cast<std::int64_t>(n));
    return OpenInterval{(lambda.low - pq.q) / gap, (lambda.high - pq.q) / gap};
  };
  const OpenInterval none = exact(0), below_all = exact(padding - 1);
  ChosenShare& first = result.distribution.front();
  ChosenShare& last = result.distribution.back();
  first.ci_low = std::min(none.low, first.share), first.ci_high = std::max(none.high, first.share);
  last.ci_low = std::min(1.0 - below_all.high, last.share), last.ci_high = std::max(1.0 - below_all.low, last.share);
  result.note = "from the dummies' shares: exact for sets of at most " + std::to_string(padding) +
                " options; intervals are the population's";
  return result;
}

}  // namespace deniable
