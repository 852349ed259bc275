#include "core/central/release_document.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/central/release_noise.h"
#include "core/survey/interval_target.h"

namespace deniable {
namespace {

nlohmann::json Interval(double value, double half_width) {
  return {{"value", value}, {"ci_low", value - half_width}, {"ci_high", value + half_width}};
}

// The group of each bin.
std::vector<std::size_t> GroupOfBin(const LedgerRelease& release) {
  std::vector<std::size_t> group_of(release.values.size(), 0);
  for (std::size_t g = 0; g < release.groups.size(); ++g) {
    for (std::size_t bin : release.groups[g]) group_of[bin] = g;
  }
  return group_of;
}

// What the intervals of one release are for: the noise's half-widths are
// widened by the sample's error for the population (release_noise.h).
struct IntervalRule {
  IntervalTarget target;
  std::int64_t respondents;
  // The half-width for a published `value` that is `scale` times a sum of
  // counts (1 for a bin or a sum of bins, 1/m for a group's mean), whose
  // noise alone gives `noise_half_width` on the sum's scale.
  double HalfWidth(double noise_half_width, double value, double scale) const {
    if (target == IntervalTarget::kRespondents) return noise_half_width * scale;
    const double sampling = CountSamplingVariance(value / scale, respondents);
    return WithSamplingHalfWidth(noise_half_width, sampling) * scale;
  }
};

// A view's bin: the sum of its bins, with an interval when it is made of
// whole groups (the noise is then a sum of whole draws); otherwise none.
nlohmann::json ViewBinDocument(const ViewBin& bin, const LedgerRelease& release, const std::vector<std::size_t>& group_of,
                               double decay, const IntervalRule& rule) {
  double value = 0.0;
  std::vector<std::size_t> members_inside(release.groups.size(), 0);
  for (std::size_t b = bin.first; b < bin.end; ++b) {
    value += release.values[b];
    ++members_inside[group_of[b]];
  }
  std::int64_t whole = 0;
  bool splits_a_group = false;
  for (std::size_t g = 0; g < release.groups.size(); ++g) {
    if (members_inside[g] == 0) continue;
    if (members_inside[g] == release.groups[g].size()) {
      ++whole;
    } else {
      splits_a_group = true;
    }
  }
  nlohmann::json document = {{"label", bin.label}, {"value", value}};
  if (splits_a_group || whole == 0) {
    document["ci_low"] = document["ci_high"] = nullptr;
  } else {
    document.update(Interval(value, rule.HalfWidth(NoiseSumHalfWidth(decay, whole, kReleaseConfidence), value, 1.0)));
  }
  return document;
}

// What the release's intervals cover, in words beside "interval_for".
std::string IntervalNote(IntervalTarget target) {
  const std::string noise =
      "a bin alone in its group has one for its count; bins grouped together share one noisy mean, and the interval "
      "is for the group's mean count (how the true counts spread inside a group is not published, so no honest "
      "interval exists for one of its bins)";
  if (target == IntervalTarget::kRespondents) {
    return "95% intervals for these respondents' counts: they come from the noise alone, whose law is public, so "
           "they hold whatever the answers: " + noise;
  }
  return "95% intervals for the population the respondents were drawn from: each covers the count expected among "
         "this many respondents (their number times the population's share), counting the noise (whose law is "
         "public) and the sampling (n F (1 - F) for a share F); the release's total is the number of respondents, "
         "which no sample changes. " + noise;
}

}  // namespace

std::vector<double> PostProcessedValues(const LedgerRelease& release, const PostProcessing& steps) {
  return PostProcess(release.values, steps);
}

nlohmann::json ReleaseDocument(const LedgerRelease& release, const ReleaseLayout& layout, IntervalTarget target) {
  const IntervalRule rule{target, release.respondents};
  const double decay = PublishedNoiseDecay(release.request, release.sensitivity);
  const double half_width = static_cast<double>(DiscreteLaplaceHalfWidth(decay, kReleaseConfidence));
  const std::vector<std::size_t> group_of = GroupOfBin(release);
  nlohmann::json groups = nlohmann::json::array();
  std::vector<nlohmann::json> shared_index(release.groups.size());  // index in "groups" of groups with several bins
  for (std::size_t g = 0; g < release.groups.size(); ++g) {
    const auto& members = release.groups[g];
    if (members.size() < 2) continue;
    shared_index[g] = groups.size();
    const double size = static_cast<double>(members.size());
    const double mean = release.values[members.front()];
    nlohmann::json group = Interval(mean, rule.HalfWidth(half_width, mean, 1.0 / size));
    group["mean"] = group["value"];
    group.erase("value");
    std::vector<std::size_t> sorted = members;
    std::sort(sorted.begin(), sorted.end());
    group["bins"] = sorted;
    groups.push_back(std::move(group));
  }
  nlohmann::json bins = nlohmann::json::array();
  for (std::size_t b = 0; b < release.values.size(); ++b) {
    const std::string label = b < layout.labels.size() ? layout.labels[b] : std::to_string(b);
    nlohmann::json bin = {{"label", label}};
    if (shared_index[group_of[b]].is_null()) {
      bin.update(Interval(release.values[b], rule.HalfWidth(half_width, release.values[b], 1.0)));
    } else {
      bin["value"] = release.values[b];
      bin["ci_low"] = bin["ci_high"] = nullptr;
      bin["group"] = shared_index[group_of[b]];
    }
    bins.push_back(std::move(bin));
  }
  nlohmann::json views = nlohmann::json::array();
  for (const ReleaseView& view : layout.views) {
    nlohmann::json view_bins = nlohmann::json::array();
    for (const ViewBin& bin : view.bins) view_bins.push_back(ViewBinDocument(bin, release, group_of, decay, rule));
    views.push_back({{"name", view.name}, {"bins", view_bins}});
  }
  const double total = std::accumulate(release.values.begin(), release.values.end(), 0.0);
  const auto draws = static_cast<std::int64_t>(release.groups.size());
  return {{"id", release.id},
          {"method", release.request.method},
          {"epsilon", release.request.epsilon},
          {"request", release.request.ToJson()},
          {"created_at", release.created_at},
          {"respondents", release.respondents},
          {"sensitivity", release.sensitivity},
          {"confidence", kReleaseConfidence},
          {"bins", bins},
          {"groups", groups},
          {"total", Interval(total, NoiseSumHalfWidth(decay, draws, kReleaseConfidence))},
          {"consistent", PostProcess(release.values, {false, false, true})},
          {"views", views},
          {"interval_for", IntervalForJson(target)},
          {"interval_note", IntervalNote(target)}};
}

nlohmann::json LedgerDocument(const ReleaseLedger& ledger, const ReleaseLayout& layout, IntervalTarget target) {
  nlohmann::json releases = nlohmann::json::array();
  for (const LedgerRelease& release : ledger.releases()) releases.push_back(ReleaseDocument(release, layout, target));
  nlohmann::json document = ledger.ToJson();
  document["releases"] = releases;
  document["interval_for"] = IntervalForJson(target);
  document.erase("scheduled_serial");
  return document;
}

}  // namespace deniable
