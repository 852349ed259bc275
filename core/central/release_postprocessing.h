// Optional post-processing of a published histogram (free under DP, but it
// biases the error; a release is stored raw and these are applied on read):
//   clamp:       negative values to 0;
//   round:       to the nearest integer (after clamping when both are asked);
//   consistent:  Norm-Sub (core/frequency/norm_sub.h): non-negative values
//                that sum to the raw release's own total (itself DP).
#pragma once

#include <vector>

namespace deniable {

struct PostProcessing {
  bool clamp = false;
  bool round = false;
  bool consistent = false;
};

std::vector<double> PostProcess(const std::vector<double>& released, const PostProcessing& steps);

}  // namespace deniable
