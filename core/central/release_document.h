// The published form of a question's releases: what every reader of the
// results or the ledger sees. Per release, each bin's value with a 95%
// interval where an honest one exists (release_noise.h), for the population
// the respondents were drawn from (noise and sampling; the default) or for
// these respondents' counts (the noise alone, exact), as "interval_for" says.
// The stored release holds values only: intervals are made here, on read, so
// stored ledgers need no change. A bin alone in its
// group gets one for its count; a bin sharing a group gets none, and the
// group gets one for its members' mean count; sums over whole groups (the
// release's total, a view's bin made of whole groups) get a Chernoff interval.
// Norm-Sub's consistent values come beside the raw ones (post-processing,
// release_postprocessing.h); the stored release is never changed.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/central/release_ledger.h"
#include "core/central/release_postprocessing.h"
#include "core/survey/interval_target.h"

namespace deniable {

inline constexpr double kReleaseConfidence = 0.95;

// A bin of a derived view: bins [first, end) of the release, summed.
struct ViewBin {
  std::string label;
  std::size_t first = 0, end = 0;
};
// A view of a release as sums of its bins (a histogram question's data
// consumers' bins over its fine cells).
struct ReleaseView {
  std::string name;
  std::vector<ViewBin> bins;
};

struct ReleaseLayout {
  std::vector<std::string> labels;  // one per bin
  std::vector<ReleaseView> views;
};

// {"id", "request", "method", "epsilon", "created_at", "respondents", "sensitivity", "confidence",
//  "bins": [{"label", "value", "ci_low", "ci_high", "group"?}], "groups": [{"bins", "mean", "ci_low", "ci_high"}],
//  "total": {"value", "ci_low", "ci_high"}, "consistent": [...], "views": [...], "interval_for", "interval_note"}
nlohmann::json ReleaseDocument(const LedgerRelease& release, const ReleaseLayout& layout,
                               IntervalTarget target = IntervalTarget::kPopulation);

// {"budget", "spent", "reserved", "left", "releases": [ReleaseDocument...], "scheduled": [{"id", "request",
//  "at_respondents", "scheduled_at"}], "interval_for"}.
nlohmann::json LedgerDocument(const ReleaseLedger& ledger, const ReleaseLayout& layout,
                              IntervalTarget target = IntervalTarget::kPopulation);

// A release's values after the requested post-processing (applied on read).
std::vector<double> PostProcessedValues(const LedgerRelease& release, const PostProcessing& steps);

}  // namespace deniable
