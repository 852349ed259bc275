// Answers clumped on a few values, as the fitted distribution shows them:
// separate bumps. The estimator spreads a single value over its resolution
// (numeric_statistics.h: Resolution), so values closer than that come back as
// one smooth bump, and a quantile that the answers put on one value lands
// between two (years married in Fair's survey: 74.4% at 13 or less, the next
// value 16.5; the fit merged 13 and 16.5 and put the upper quartile at
// 13.8-15.7, and its interval held 16.5 in 1 of 10 surveys at n = 20,000,
// Laplace epsilon 4). The reports cannot tell such values from a smooth bump
// (the channel attenuates detail at the values' spacing far below the
// sampling noise), so nothing in them flags the quantile; what the fit does
// show is the answers' structure at the resolution's own scale: several
// bumps separated by deep dips. There the answers' quantiles are known only
// to within a single value's spread, and the statistics say so
// (numeric_statistics.cc); a fit with one bump keeps the narrower rule that
// assumes smooth answers.
//
// Why a dip to two thirds of the lower peak: two values a blur of standard
// deviation s apart, each spread by it, show a dip only when they are more
// than 2 s apart, and one to two thirds when 3 s apart; ripples of a flat or
// smooth fit dip far less (n = 20,000, Laplace epsilon 4 and Square Wave
// epsilon 1, 3 surveys each: uniform answers' deepest dip 0.73-0.93 of the
// lower peak, normal, log-normal, chi-square and the real single-peaked
// columns none; years married 0.20-0.61; over 30 cells of 10 surveys it
// fired on years married, bimodal answers and a point mass with a tail in
// every run, on log-normal, integer and disease-index answers under Square
// Wave epsilon 1 in 1-3 of 10, and on no other cell). Bumps holding less than 5% of
// the answers are left out (a smoothing artefact at a range's end is that
// small; a quantile's knife edge needs a value holding several percent).
#pragma once

#include "core/distribution/distribution_summary.h"

namespace deniable {

inline constexpr double kClumpDipShare = 2.0 / 3.0;  // of the lower of the two highest points on either side
inline constexpr double kClumpLeastMass = 0.05;     // of the answers, per bump

// The bumps of the fitted cells: maximal runs of cells above kClumpDipShare
// times the lower of the highest cells on their left and on their right
// (themselves included), counting those that hold at least kClumpLeastMass.
// A single-peaked or flat distribution has one.
int SeparateBumps(const GridDistribution& fitted);

}  // namespace deniable
