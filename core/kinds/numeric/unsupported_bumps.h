// Bumps of the reconstructed density that the reports do not support: local
// maxima of the curve (other than its highest point) where the density's
// band reaches 0, so that no answers at all there would fit the reports as
// well. The estimator's smoothing and the channel's noise make such bumps,
// most often at the range's ends (the numeric demo at n = 300: a bump at
// 0-1 h in sleep answers drawn from normal(7, 1)); the results say so
// instead of letting the curve suggest a second group of answers.
#pragma once

#include <string>
#include <vector>

#include "core/distribution/bootstrap.h"

namespace deniable {

// The display points of such bumps, left to right. Bumps lower than 2% of
// the curve's peak, or falling by less than a quarter of their height before
// higher ground, are left out (nothing a reader would see as a bump).
std::vector<double> UnsupportedBumps(const std::vector<double>& points, const std::vector<double>& density,
                                     const BootstrapBand& band);

// The note for the results ("" when there are none); `unit` may be empty.
std::string UnsupportedBumpsNote(const std::vector<double>& bumps, const std::string& unit);

}  // namespace deniable
