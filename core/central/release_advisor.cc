#include "core/central/release_advisor.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "core/central/release_request.h"
#include "core/common/seeded_random.h"
#include "core/distribution/bootstrap.h"

namespace deniable {
namespace {

constexpr std::uint64_t kAdviceSeed = 20140101;
// Releases per shape and method: enough for a stable ranking, few enough for a page (about 0.2 s at 4096 bins).
constexpr std::size_t kReleaseBudget = 40000;

// The alternatives: a method, and whether its consistent post-processing is read.
struct Alternative {
  const char* name;
  const char* method;
  bool consistent;
};
constexpr Alternative kAlternatives[] = {{"sreb_gca", "sreb_gca", false},
                                         {"dp_base", "dp_base", false},
                                         {"dp_base+consistent", "dp_base", true},
                                         {"ahp", "ahp", false},
                                         {"ahp+consistent", "ahp", true}};

// A shape's weights over `bins` (public, no data).
std::vector<double> ShapeWeights(const std::string& shape, std::size_t bins, RandomSource& random) {
  std::vector<double> weights(bins, 1.0);
  if (shape == "skewed") {
    for (std::size_t i = 0; i < bins; ++i) weights[i] = 1.0 / std::pow(static_cast<double>(i + 1), 1.1);
  } else if (shape == "sparse") {
    const std::size_t used = std::max<std::size_t>(1, bins / 20);
    for (std::size_t i = 0; i < bins; ++i) weights[i] = i < used ? 1.0 + static_cast<double>(used - i) : 0.0;
  } else if (shape == "smooth") {  // in order, as a numeric answer's histogram: two bumps over thin tails
    for (std::size_t i = 0; i < bins; ++i) {
      const double x = (static_cast<double>(i) + 0.5) / static_cast<double>(bins);
      weights[i] = 0.01 + std::exp(-std::pow((x - 0.3) / 0.08, 2.0)) + 0.5 * std::exp(-std::pow((x - 0.7) / 0.15, 2.0));
    }
    return weights;
  }
  for (std::size_t i = bins; i > 1; --i) std::swap(weights[i - 1], weights[UniformBelow(random, i)]);
  return weights;
}

// The summed errors of one alternative on one shape, for every consumer (bins first, then each view).
struct Tally {
  std::vector<double> error, half_width;
};
using ShapeTallies = std::vector<Tally>;  // per shape

void Score(const ReleaseLayout& layout, const std::vector<std::int64_t>& counts, const nlohmann::json& published,
           const std::vector<double>& values, double respondents, Tally& tally) {
  double mre = 0.0;
  for (std::size_t b = 0; b < counts.size(); ++b) {
    const double h = static_cast<double>(counts[b]);
    mre += std::fabs(h - values[b]) / std::max(h, 1.0);
  }
  tally.error[0] += mre / static_cast<double>(counts.size());
  for (std::size_t v = 0; v < layout.views.size(); ++v) {
    const auto& view = layout.views[v];
    double error = 0.0, width = 0.0;
    for (std::size_t k = 0; k < view.bins.size(); ++k) {
      double truth = 0.0, value = 0.0;
      for (std::size_t b = view.bins[k].first; b < view.bins[k].end; ++b) {
        truth += static_cast<double>(counts[b]);
        value += values[b];
      }
      error += std::fabs(value - truth);
      const auto& bin = published.at("views")[v].at("bins")[k];
      width += bin.at("ci_low").is_number() ? (bin.at("ci_high").get<double>() - bin.at("ci_low").get<double>()) / 2.0
                                            : respondents;  // none: as wide as everything
    }
    const auto bins = static_cast<double>(view.bins.size());
    tally.error[v + 1] += error / bins / respondents;
    tally.half_width[v + 1] += width / bins / respondents;
  }
}

std::string Reason(const std::string& consumer, bool view) {
  if (!view) return "the closest to the best per-bin relative error, whatever the answers' shape";
  return "the closest to the best error on " + consumer +
         "'s bins, whatever the answers' shape (sums of whole groups keep a noise interval; bins that cut a group get "
         "wide bounds)";
}

}  // namespace

nlohmann::json ReleaseAdvice(const ReleaseLayout& layout, double budget, std::int64_t sensitivity,
                             std::int64_t respondents) {
  const std::size_t bins = layout.labels.size();
  const std::int64_t n = std::max<std::int64_t>(1, respondents);
  const std::vector<std::string> shapes = {"skewed", "sparse", "smooth"};
  const std::size_t runs = std::clamp<std::size_t>(kReleaseBudget / std::max<std::size_t>(1, bins * 3), 3, 20);
  const std::size_t consumers = layout.views.size() + 1;
  std::map<std::string, ShapeTallies> tallies;
  for (const Alternative& alternative : kAlternatives) {
    tallies[alternative.name].assign(shapes.size(), {std::vector<double>(consumers, 0.0), std::vector<double>(consumers, 0.0)});
  }
  SeededRandom random(kAdviceSeed);
  for (std::size_t s = 0; s < shapes.size(); ++s) {
    for (std::size_t run = 0; run < runs; ++run) {
      const std::vector<std::int64_t> counts = SampleMultinomial(n, ShapeWeights(shapes[s], bins, random), random);
      for (const char* method : {"sreb_gca", "dp_base", "ahp"}) {
        ReleaseRequest request;
        request.method = method;
        request.epsilon = budget;
        auto drawn = RunRelease(request, counts, sensitivity, random);
        if (!drawn) continue;
        LedgerRelease release{"advice", request, "", n, sensitivity, drawn->values, {}};
        for (const ReleaseGroup& group : drawn->groups) release.groups.push_back(group.bins);
        const nlohmann::json published = ReleaseDocument(release, layout);
        for (const Alternative& alternative : kAlternatives) {
          if (std::string(alternative.method) != method) continue;
          const std::vector<double> values =
              alternative.consistent ? published.at("consistent").get<std::vector<double>>() : drawn->values;
          Score(layout, counts, published, values, static_cast<double>(n), tallies[alternative.name][s]);
        }
      }
    }
  }
  nlohmann::json consumer_list = nlohmann::json::array();
  for (std::size_t c = 0; c < consumers; ++c) {
    const std::string name = c == 0 ? "bins" : layout.views[c - 1].name;
    // Per shape, each alternative's error relative to the shape's best: the answers' shape is unknown before
    // collection, so the recommendation is the alternative whose worst ratio is smallest (never far from the best).
    std::vector<double> best_on_shape(shapes.size(), 0.0);
    for (std::size_t s = 0; s < shapes.size(); ++s) {
      for (const Alternative& alternative : kAlternatives) {
        const double error = tallies[alternative.name][s].error[c];
        if (best_on_shape[s] == 0.0 || error < best_on_shape[s]) best_on_shape[s] = error;
      }
    }
    nlohmann::json by_shape = nlohmann::json::object();  // what serves best when the answers have that shape
    for (std::size_t s = 0; s < shapes.size(); ++s) {
      for (const Alternative& alternative : kAlternatives) {
        if (tallies[alternative.name][s].error[c] == best_on_shape[s]) {
          by_shape[shapes[s]] = alternative.name;
          break;
        }
      }
    }
    nlohmann::json errors = nlohmann::json::object(), widths = nlohmann::json::object(), worst = nlohmann::json::object();
    std::string best;
    for (const Alternative& alternative : kAlternatives) {
      double mean = 0.0, width = 0.0, ratio = 1.0;
      for (std::size_t s = 0; s < shapes.size(); ++s) {
        const Tally& tally = tallies[alternative.name][s];
        mean += tally.error[c] / static_cast<double>(runs * shapes.size());
        width += tally.half_width[c] / static_cast<double>(runs * shapes.size());
        if (best_on_shape[s] > 0.0) ratio = std::max(ratio, tally.error[c] / best_on_shape[s]);
      }
      errors[alternative.name] = mean;
      worst[alternative.name] = ratio;
      if (c > 0) widths[alternative.name] = width;
      if (best.empty() || ratio < worst[best].get<double>()) best = alternative.name;
    }
    nlohmann::json consumer = {{"name", name},
                               {"measure", c == 0 ? "mre" : "share_mae"},
                               {"errors", errors},
                               {"worst_ratio", worst},
                               {"best_by_shape", by_shape},
                               {"recommended", best},
                               {"reason", Reason(name, c > 0)}};
    if (c > 0) consumer["half_widths"] = widths;
    consumer_list.push_back(std::move(consumer));
  }
  nlohmann::json methods = nlohmann::json::array();
  for (const Alternative& alternative : kAlternatives) methods.push_back(alternative.name);
  return {{"kind", "central_release"},
          {"n", n},
          {"budget", budget},
          {"bins", bins},
          {"shapes", shapes},
          {"runs", runs},
          {"methods", methods},
          {"consumers", consumer_list},
          {"note", "measured on answers drawn from public shapes (skewed, sparse, smooth), each method at the "
                   "whole budget; recommended: the smallest worst ratio to the best over the shapes. `deniable "
                   "simulate` with your own data (a CSV truth) measures them on it"}};
}

}  // namespace deniable
