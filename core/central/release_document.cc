#include "core/central/release_document.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>
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

// A view's bin: the sum of its bins. Made of whole groups, its error is the
// sum of their draws: value +- a Chernoff bound. When it cuts a group, the
// value takes the members inside at the group's mean, and how the group's
// true counts spread over its members is not published (no per-bin interval
// exists), but the bin's true sum is still bounded: at least the whole
// groups' true sums (none of the cut groups' counts inside), at most those
// plus the cut groups' whole true sums (all of them inside). Each end is
// bounded with its draws at 1 - alpha/2, so both hold together with at least
// the confidence; counts are never negative. Honest, and as wide as the cut
// groups are large: the document says which bins are such bounds.
// Half-widths of sums of k draws at a confidence, computed once per release (each is a numeric search).
class SumHalfWidths {
 public:
  explicit SumHalfWidths(double decay) : decay_(decay) {}
  double operator()(std::int64_t k, double confidence) {
    const auto key = std::make_pair(k, confidence);
    const auto found = known_.find(key);
    if (found != known_.end()) return found->second;
    return known_[key] = NoiseSumHalfWidth(decay_, k, confidence);
  }

 private:
  double decay_;
  std::map<std::pair<std::int64_t, double>, double> known_;
};

nlohmann::json ViewBinDocument(const ViewBin& bin, const LedgerRelease& release, const std::vector<std::size_t>& group_of,
                               SumHalfWidths& half_width, const IntervalRule& rule) {
  double value = 0.0;
  std::vector<std::size_t> members_inside(release.groups.size(), 0);
  for (std::size_t b = bin.first; b < bin.end; ++b) {
    value += release.values[b];
    ++members_inside[group_of[b]];
  }
  std::int64_t whole = 0, cut = 0;
  double whole_sum = 0.0, cut_sum = 0.0;  // the groups' published sums (mean x members)
  for (std::size_t g = 0; g < release.groups.size(); ++g) {
    if (members_inside[g] == 0) continue;
    const double published = release.values[release.groups[g].front()] * static_cast<double>(release.groups[g].size());
    if (members_inside[g] == release.groups[g].size()) {
      ++whole;
      whole_sum += published;
    } else {
      ++cut;
      cut_sum += published;
    }
  }
  nlohmann::json document = {{"label", bin.label}, {"value", value}};
  if (whole + cut == 0) {
    document["ci_low"] = document["ci_high"] = nullptr;
  } else if (cut == 0) {
    document.update(Interval(value, rule.HalfWidth(half_width(whole, kReleaseConfidence), value, 1.0)));
  } else {
    const double each_end = whole == 0 ? kReleaseConfidence : 1.0 - (1.0 - kReleaseConfidence) / 2.0;
    // For the population each end also counts the sample's error on the sums it bounds (release_noise.h).
    const double low_sum = whole_sum, high_sum = whole_sum + cut_sum;
    const double low = whole == 0 ? 0.0 : std::max(0.0, low_sum - rule.HalfWidth(half_width(whole, each_end), low_sum, 1.0));
    const double high = high_sum + rule.HalfWidth(half_width(whole + cut, each_end), high_sum, 1.0);
    document["ci_low"] = std::min(low, value);  // widened, never narrowed, to hold the estimate
    document["ci_high"] = std::max(high, value);
    document["cuts_groups"] = cut;
  }
  return document;
}

// What the release's intervals cover, in words beside "interval_for".
std::string IntervalNote(IntervalTarget target) {
  const std::string noise =
      "a bin alone in its group has one for its count; bins grouped together share one noisy mean, and the interval "
      "is for the group's mean count (how the true counts spread inside a group is not published, so no honest "
      "interval exists for one of its bins); a data consumer's bin that cuts groups (\"cuts_groups\") gets bounds "
      "instead: from none to all of the cut groups' counts, with the noise, so it is wide";
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
  SumHalfWidths sum_half_width(decay);
  for (const ReleaseView& view : layout.views) {
    nlohmann::json view_bins = nlohmann::json::array();
    for (const ViewBin& bin : view.bins) view_bins.push_back(ViewBinDocument(bin, release, group_of, sum_half_width, rule));
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
