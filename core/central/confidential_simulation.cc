#include "core/central/confidential_simulation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include "core/central/release_request.h"
#include "core/common/json_fields.h"
#include "core/common/seeded_random.h"
#include "core/common/validation.h"
#include "core/central/release_advisor.h"

namespace deniable {
namespace {

// The error of published values against the true counts.
struct BinErrors {
  double mre = 0.0, mae = 0.0;
};

BinErrors ErrorsOf(const std::vector<std::int64_t>& truth, const std::vector<double>& values) {
  BinErrors errors;
  for (std::size_t b = 0; b < truth.size(); ++b) {
    const double h = static_cast<double>(truth[b]);
    errors.mre += std::fabs(h - values[b]) / std::max(h, 1.0);
    errors.mae += std::fabs(h - values[b]);
  }
  const auto bins = static_cast<double>(truth.size());
  return {errors.mre / bins, errors.mae / bins};
}

bool Covers(const nlohmann::json& interval, double truth) {
  return interval.at("ci_low").is_number() && interval.at("ci_low").get<double>() <= truth &&
         truth <= interval.at("ci_high").get<double>();
}

// Per data consumer's view: the mean absolute error of its bins (raw and from
// the consistent values) and how many publish an interval and cover the truth.
nlohmann::json ViewErrors(const ReleaseView& view, const nlohmann::json& published, const std::vector<std::int64_t>& truth,
                          const std::vector<double>& consistent) {
  double mae = 0.0, consistent_mae = 0.0;
  int intervals = 0, covered = 0;
  for (std::size_t v = 0; v < view.bins.size(); ++v) {
    const ViewBin& bin = view.bins[v];
    double true_sum = 0.0, consistent_sum = 0.0;
    for (std::size_t b = bin.first; b < bin.end; ++b) {
      true_sum += static_cast<double>(truth[b]);
      consistent_sum += consistent[b];
    }
    const auto& document = published.at("bins")[v];
    mae += std::fabs(document.at("value").get<double>() - true_sum);
    consistent_mae += std::fabs(consistent_sum - true_sum);
    if (document.at("ci_low").is_number()) {
      ++intervals;
      covered += Covers(document, true_sum) ? 1 : 0;
    }
  }
  const auto bins = static_cast<double>(view.bins.size());
  return {{"name", view.name},
          {"mae", mae / bins},
          {"consistent_mae", consistent_mae / bins},
          {"intervals", intervals},
          {"covered", covered},
          {"bins", view.bins.size()}};
}

// One release's errors against the counts it was made from.
nlohmann::json ReleaseErrors(const nlohmann::json& published, const ReleaseLayout& layout,
                             const std::vector<std::int64_t>& truth) {
  std::vector<double> values;
  for (const auto& bin : published.at("bins")) values.push_back(bin.at("value").get<double>());
  const auto consistent = published.at("consistent").get<std::vector<double>>();
  const BinErrors raw = ErrorsOf(truth, values), post = ErrorsOf(truth, consistent);
  int intervals = 0, covered = 0;
  for (std::size_t b = 0; b < truth.size(); ++b) {
    const auto& bin = published.at("bins")[b];
    if (!bin.at("ci_low").is_number()) continue;
    ++intervals;
    covered += Covers(bin, static_cast<double>(truth[b])) ? 1 : 0;
  }
  nlohmann::json views = nlohmann::json::array();
  for (std::size_t v = 0; v < layout.views.size(); ++v) {
    views.push_back(ViewErrors(layout.views[v], published.at("views")[v], truth, consistent));
  }
  const double total = std::accumulate(truth.begin(), truth.end(), 0.0);
  return {{"id", published.at("id")},
          {"method", published.at("method")},
          {"epsilon", published.at("epsilon")},
          {"groups", published.at("groups").size()},
          {"mre", raw.mre},
          {"consistent_mre", post.mre},
          {"mae", raw.mae},
          {"consistent_mae", post.mae},
          {"total_error", published.at("total").at("value").get<double>() - total},
          {"bin_intervals", intervals},
          {"bin_intervals_covered", covered},
          {"views", views}};
}

class ConfidentialTruth final : public TruthSampler {
 public:
  ConfidentialTruth(const AnswerBins& bins, double budget, std::int64_t sensitivity, std::vector<double> weights,
                    std::vector<nlohmann::json> values, std::vector<ReleaseRequest> releases)
      : bins_(bins),
        budget_(budget),
        sensitivity_(sensitivity),
        weights_(std::move(weights)),
        values_(std::move(values)),
        releases_(std::move(releases)),
        counts_(bins.bins(), 0) {}

  Result<nlohmann::json> Draw(RandomSource& random) override {
    KeepSeed(random);
    if (!values_.empty()) return Answer(values_[static_cast<std::size_t>(UniformBelow(random, values_.size()))]);
    double u = UniformUnit(random) * std::accumulate(weights_.begin(), weights_.end(), 0.0);
    std::size_t bin = 0;
    while (bin + 1 < weights_.size() && (u -= weights_[bin]) >= 0.0) ++bin;
    return Answer(bins_.AnswerInBin(bin));
  }
  std::size_t rows() const override { return values_.size(); }
  Result<nlohmann::json> DrawRow(std::size_t row, RandomSource& random) override {
    KeepSeed(random);
    return Answer(values_[row]);
  }

  nlohmann::json Compare(const nlohmann::json& /*result*/) const override {
    const std::int64_t n = std::accumulate(counts_.begin(), counts_.end(), std::int64_t{0});
    nlohmann::json truth = {{"counts", counts_}};
    if (!weights_.empty()) truth["frequencies"] = weights_;
    nlohmann::json document = {{"truth", truth}, {"errors", nullptr}, {"advice", nullptr}, {"releases", nlohmann::json::array()}};
    if (n == 0) return document;
    const ReleaseLayout layout = bins_.layout();
    nlohmann::json errors = nlohmann::json::array();
    for (std::size_t r = 0; r < releases_.size(); ++r) {
      SeededRandom random(seed_ + r);  // each alternative its own noise, reproducible from the simulation's seed
      auto drawn = RunRelease(releases_[r], counts_, sensitivity_, random);
      if (!drawn) continue;  // the request was validated when parsed; the counts are valid
      LedgerRelease release{"sim" + std::to_string(r + 1), releases_[r], "", n, sensitivity_, drawn->values, {}};
      for (const ReleaseGroup& group : drawn->groups) release.groups.push_back(group.bins);
      nlohmann::json published = ReleaseDocument(release, layout);
      published.erase("created_at");
      errors.push_back(ReleaseErrors(published, layout, counts_));
      errors.back()["groups"] = release.groups.size();
      document["releases"].push_back(std::move(published));
    }
    document["errors"] = {{"releases", errors}};
    document["advice"] = ReleaseAdvice(layout, budget_, sensitivity_, n);
    return document;
  }

 private:
  void KeepSeed(RandomSource& random) {
    if (!seeded_) seed_ = random.NextU64();
    seeded_ = true;
  }
  nlohmann::json Answer(nlohmann::json answer) {
    ++counts_[bins_.BinOf(answer).value()];  // validated when parsed
    return answer;
  }

  const AnswerBins& bins_;
  double budget_;
  std::int64_t sensitivity_;
  std::vector<double> weights_;
  std::vector<nlohmann::json> values_;
  std::vector<ReleaseRequest> releases_;
  std::vector<std::int64_t> counts_;
  std::uint64_t seed_ = 0;
  bool seeded_ = false;
};

Result<std::vector<double>> ReadFrequencies(const AnswerBins& bins, const nlohmann::json& entry, const std::string& where) {
  const std::string bad = where + ".frequencies: must be an array of " + std::to_string(bins.bins()) +
                          " non-negative weights, one per bin, not all zero";
  if (!entry.at("frequencies").is_array() || entry.at("frequencies").size() != bins.bins()) return MakeError(bad);
  std::vector<double> weights;
  for (const auto& weight : entry.at("frequencies")) {
    if (!weight.is_number() || !std::isfinite(weight.get<double>()) || weight.get<double>() < 0.0) return MakeError(bad);
    weights.push_back(weight.get<double>());
  }
  if (std::accumulate(weights.begin(), weights.end(), 0.0) <= 0.0) return MakeError(bad);
  return weights;
}

Result<std::vector<nlohmann::json>> ReadValues(const AnswerBins& bins, const nlohmann::json& entry, const std::string& where) {
  const auto& values = entry.at("values");
  if (!values.is_array() || values.empty()) return MakeError(where + ".values: must be a non-empty array of answers");
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (auto bin = bins.BinOf(values[i]); !bin) {
      return MakeError(where + ".values[" + std::to_string(i) + "]: " + bin.error());
    }
  }
  return values.get<std::vector<nlohmann::json>>();
}

// The alternatives to compare (default: each method at the whole budget).
Result<std::vector<ReleaseRequest>> ReadReleases(const nlohmann::json& entry, double budget, const std::string& where) {
  std::vector<ReleaseRequest> releases;
  if (!entry.contains("releases")) {
    for (const char* method : {"sreb_gca", "dp_base", "ahp"}) {
      ReleaseRequest request;
      request.method = method;
      request.epsilon = budget;
      releases.push_back(request);
    }
    return releases;
  }
  const auto& list = entry.at("releases");
  if (!list.is_array() || list.empty() || list.size() > 20) {
    return MakeError(where + ".releases: must be an array of 1 to 20 release requests ({\"method\", \"epsilon\", ...})");
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string path = where + ".releases[" + std::to_string(i) + "]";
    auto request = ParseReleaseRequest(list[i]);
    if (!request) return MakeError(path + (request.error().rfind(":", 0) == 0 ? "" : ".") + request.error());
    if (request->epsilon > budget) {
      return MakeError(path + ".epsilon: " + FormatNumber(request->epsilon) + " is more than the question's budget of " +
                       FormatNumber(budget));
    }
    releases.push_back(*request);
  }
  return releases;
}

// A cell as an answer: an option label, or a 0-based option index.
Result<nlohmann::json> CellAnswer(const AnswerBins& bins, const std::string& cell) {
  const auto labels = bins.layout().labels;
  const auto found = std::find(labels.begin(), labels.end(), cell);
  if (found != labels.end()) return bins.AnswerInBin(static_cast<std::size_t>(found - labels.begin()));
  if (!cell.empty() && std::all_of(cell.begin(), cell.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
      cell.size() < 9 && std::stoul(cell) < labels.size()) {
    return bins.AnswerInBin(std::stoul(cell));
  }
  return MakeError("\"" + cell + "\" is neither an option nor an option's 0-based index");
}

}  // namespace

Result<std::unique_ptr<TruthSampler>> ParseConfidentialTruth(const AnswerBins& bins, double budget,
                                                             std::int64_t sensitivity, const nlohmann::json& entry,
                                                             const std::string& where) {
  DENIABLE_TRY(RequireObject(entry, where));
  DENIABLE_TRY(RejectUnknownFields(entry, {"frequencies", "values", "releases"}, where));
  if (entry.contains("frequencies") == entry.contains("values")) {
    return MakeError(where + ": give exactly one of \"frequencies\" (a weight per bin) and \"values\" (answers)");
  }
  std::vector<double> weights;
  std::vector<nlohmann::json> values;
  if (entry.contains("frequencies")) {
    DENIABLE_ASSIGN_OR_RETURN(auto read, ReadFrequencies(bins, entry, where));
    weights = std::move(read);
  } else {
    DENIABLE_ASSIGN_OR_RETURN(auto read, ReadValues(bins, entry, where));
    values = std::move(read);
  }
  DENIABLE_ASSIGN_OR_RETURN(auto releases, ReadReleases(entry, budget, where));
  return std::unique_ptr<TruthSampler>(std::make_unique<ConfidentialTruth>(bins, budget, sensitivity, std::move(weights),
                                                                           std::move(values), std::move(releases)));
}

Result<nlohmann::json> ConfidentialTruthFromTable(const AnswerBins& bins,
                                                  const std::vector<std::vector<std::string>>& table,
                                                  const nlohmann::json& entry, const std::string& where) {
  DENIABLE_TRY(RejectUnknownFields(entry, {"csv", "column", "question_columns", "releases", "skip_rate"}, where));
  if (table.empty()) return MakeError(where + ".csv: no header row");
  if (!entry.contains("column")) return MakeError(where + ".column: required field is missing");
  const auto& header = table.front();
  const auto& column = entry.at("column");
  std::size_t index = header.size();
  if (column.is_number_integer() && column.get<long long>() >= 0) index = static_cast<std::size_t>(column.get<long long>());
  if (column.is_string()) index = static_cast<std::size_t>(std::find(header.begin(), header.end(), column.get<std::string>()) - header.begin());
  if (index >= header.size()) return MakeError(where + ".column: no column " + column.dump() + " in the header");
  auto values = nlohmann::json::array();
  for (std::size_t r = 1; r < table.size(); ++r) {
    if (table[r].empty()) continue;  // a blank line
    const std::string cell = index < table[r].size() ? table[r][index] : "";
    auto answer = CellAnswer(bins, cell);
    if (!answer) return MakeError("row " + std::to_string(r + 1) + ", column " + column.dump() + ": " + answer.error());
    values.push_back(*answer);
  }
  if (values.empty()) return MakeError(where + ".csv: no data rows below the header");
  nlohmann::json resolved = entry;
  for (const char* field : {"csv", "column", "question_columns"}) resolved.erase(field);
  resolved["values"] = std::move(values);
  return resolved;
}

std::string ConfidentialSimulationText(const nlohmann::json& result) {
  std::string text = "  answered in confidence by " + std::to_string(result.value("n", std::int64_t{0})) +
                     " respondents; releases made on their exact counts (each an alternative at its own epsilon):\n";
  const nlohmann::json errors = result.value("errors", nlohmann::json());
  if (!errors.is_object()) return text;
  char line[320];
  std::snprintf(line, sizeof line, "  %-4s %-9s %7s %7s %8s %9s %10s %s\n", "id", "method", "epsilon", "groups", "MRE",
                "MRE cons.", "|error|/bin", "intervals covering (bins, then each view)");
  text += line;
  for (const auto& release : errors.at("releases")) {
    std::string covering = std::to_string(release.at("bin_intervals_covered").get<int>()) + "/" +
                           std::to_string(release.at("bin_intervals").get<int>());
    for (const auto& view : release.at("views")) {
      char part[160];
      std::snprintf(part, sizeof part, "; %s |error|/bin %.3g (consistent %.3g), %d/%d", view.at("name").get<std::string>().c_str(),
                    view.at("mae").get<double>(), view.at("consistent_mae").get<double>(), view.at("covered").get<int>(),
                    view.at("intervals").get<int>());
      covering += part;
    }
    std::snprintf(line, sizeof line, "  %-4s %-9s %7g %7zu %8.4f %9.4f %10.3g %s\n",
                  release.at("id").get<std::string>().c_str(), release.at("method").get<std::string>().c_str(),
                  release.at("epsilon").get<double>(), release.at("groups").get<std::size_t>(),
                  release.at("mre").get<double>(), release.at("consistent_mre").get<double>(),
                  release.at("mae").get<double>(), covering.c_str());
    text += line;
  }
  const nlohmann::json advice = result.value("advice", nlohmann::json());
  if (!advice.is_object()) return text;
  text += "  advisor (public shapes, n = " + std::to_string(advice.at("n").get<std::int64_t>()) + "):";
  for (const auto& consumer : advice.at("consumers")) {
    text += " " + consumer.at("name").get<std::string>() + " -> " + consumer.at("recommended").get<std::string>() + ";";
  }
  text.back() = '\n';
  return text;
}

}  // namespace deniable
