// How far sharing a cut fine cell by overlap is off, estimated (custom_bins.h).
//
// A custom bin takes the part [u, v) of fine cell i (width w, share m_i of the
// answers) as (v - u) / w of m_i: right if the answers are even within the
// cell. If their density is a quadratic over the cell and its two neighbours
// (a smooth density at the scale of a fine cell), that quadratic is fixed by
// the three cells' shares (its integrals over them), and the part truly holds
// its integral over [u, v): the sharing is off by
//     e = integral_u^v d  -  (v - u) / w * m_i = sum_k lambda_k m_k,
// linear in the three shares. The quadratic is not the density: the three
// cells can also be the two before i and i, or i and the two after it, and
// the spread of those fits' errors around the centred one's measures what a
// quadratic misses.
// Plugging in the unbiased shares gives an unbiased estimate of e with
// variance sum_k lambda_k^2 Var(m_k) (flat reports: cells uncorrelated; a
// tree's are nearly so).
#pragma once

#include <map>
#include <vector>

#include "core/kinds/histogram/fine_partition.h"

namespace deniable {

// lambda_k per fine cell k for the part [from, to) of cell i under each quadratic over three consecutive
// cells holding i that fits in the range: centred on i first, then the one ending at i, then the one
// starting at it (fewer than three cells: none). The first is the estimate; how far the others' differ from
// it is the model's own error (a third derivative: an inflection or a peak at the cells' scale).
std::vector<std::map<int, double>> SharingErrorModels(const FinePartition& partition, int i, double from, double to);

}  // namespace deniable
