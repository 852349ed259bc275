#include "core/kinds/block/block_truth.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/common/json_fields.h"
#include "core/kinds/block/budget_split.h"
#include "core/kinds/numeric/numeric_truth.h"

namespace deniable {
namespace {

constexpr std::size_t kMaxTruthCells = std::size_t{1} << 20;

struct TruthModel {
  std::vector<int> sizes;
  std::vector<std::vector<int>> sources;  // each source's answers (a weights cell or a row)
  std::vector<double> cumulative;         // over sources
  bool rows = false;                      // sources are a table's rows, in order
  std::vector<double> skip;               // per attribute
  std::optional<double> dirichlet;
  std::vector<std::vector<double>> sensitivity_cumulative;  // per attribute, over the three levels
};

std::size_t Draw(const std::vector<double>& cumulative, RandomSource& random) {
  const double u = UniformUnit(random);
  const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), u);
  return static_cast<std::size_t>(std::min<std::ptrdiff_t>(it - cumulative.begin(),
                                                           static_cast<std::ptrdiff_t>(cumulative.size()) - 1));
}

double TotalVariation(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) sum += std::abs(a[i] - b[i]);
  return sum / 2.0;
}

class BlockTruth final : public TruthSampler {
 public:
  BlockTruth(const BlockDefinition& block, TruthModel model)
      : block_(block), model_(std::move(model)), source_counts_(model_.sources.size(), 0) {
    for (int size : model_.sizes) answered_counts_.emplace_back(static_cast<std::size_t>(size), 0);
  }

  Result<nlohmann::json> Draw(RandomSource& random) override {
    return Answer(deniable::Draw(model_.cumulative, random), random);
  }
  std::size_t rows() const override { return model_.rows ? model_.sources.size() : 0; }
  Result<nlohmann::json> DrawRow(std::size_t row, RandomSource& random) override { return Answer(row, random); }

  // Errors (AVD) against the respondents' own distributions; coverage
  // against the truth the intervals are for (result "interval_for").
  nlohmann::json Compare(const nlohmann::json& result) const override {
    const bool population =
        !result.contains("interval_for") || result["interval_for"].value("target", "population") == "population";
    const std::vector<double> population_weights = PopulationWeights();
    auto attributes = nlohmann::json::array();
    auto truth_attributes = nlohmann::json::array();
    for (std::size_t a = 0; a < model_.sizes.size(); ++a) {
      std::int64_t n = 0;
      for (auto c : answered_counts_[a]) n += c;
      std::vector<double> truth, estimate, consistent;
      const std::vector<double> shares =
          JointOf(nlohmann::json::array({block_.attributes[a].id}), population_weights);
      int covered = 0;
      for (std::size_t b = 0; b < answered_counts_[a].size(); ++b) {
        const double f = n > 0 ? static_cast<double>(answered_counts_[a][b]) / static_cast<double>(n) : 0.0;
        const double target = population ? shares[b] : f;
        const auto& option = result["attributes"][a]["options"][b];
        truth.push_back(f);
        estimate.push_back(option["frequency"].is_number() ? option["frequency"].get<double>() : 0.0);
        consistent.push_back(option["consistent_frequency"].is_number() ? option["consistent_frequency"].get<double>() : 0.0);
        covered += option["ci_low"].is_number() && option["ci_low"].get<double>() <= target &&
                   target <= option["ci_high"].get<double>();
      }
      truth_attributes.push_back(truth);
      attributes.push_back({{"id", block_.attributes[a].id},
                            {"avd", TotalVariation(truth, estimate)},
                            {"consistent_avd", TotalVariation(truth, consistent)},
                            {"ci_coverage", static_cast<double>(covered) / static_cast<double>(truth.size())}});
    }
    nlohmann::json errors = {{"attributes", attributes}, {"crosstab", nullptr},
                             {"coverage_of", population ? "population" : "respondents"}};
    nlohmann::json truth = {{"attributes", truth_attributes}, {"crosstab", nullptr}};
    const auto& crosstab = result["crosstab"];
    if (crosstab.contains("cells")) {
      const std::vector<double> joint = JointOf(crosstab["attributes"], DrawnWeights());
      const std::vector<double> target = population ? JointOf(crosstab["attributes"], population_weights) : joint;
      std::vector<double> consistent;
      int covered = 0, intervals = 0;
      for (std::size_t c = 0; c < joint.size(); ++c) {
        const auto& cell = crosstab["cells"][c];
        consistent.push_back(cell["consistent_frequency"].get<double>());
        if (!cell["ci_low"].is_number()) continue;
        ++intervals;
        covered += cell["ci_low"].get<double>() <= target[c] && target[c] <= cell["ci_high"].get<double>();
      }
      truth["crosstab"] = joint;
      errors["crosstab"] = {{"consistent_avd", TotalVariation(joint, consistent)},
                            {"ci_coverage", intervals > 0 ? nlohmann::json(static_cast<double>(covered) / intervals)
                                                          : nlohmann::json(nullptr)}};
    }
    return {{"truth", truth}, {"errors", errors}, {"advice", nullptr}};
  }

 private:
  // The answers of `source` (a weights cell or a row), with the skips and privacy choices drawn.
  nlohmann::json Answer(std::size_t source, RandomSource& random) {
    ++source_counts_[source];
    const std::vector<int>& values = model_.sources[source];
    std::vector<bool> answered(values.size());
    for (std::size_t a = 0; a < values.size(); ++a) answered[a] = !(UniformUnit(random) < model_.skip[a]);
    if (std::none_of(answered.begin(), answered.end(), [](bool x) { return x; })) {
      answered[static_cast<std::size_t>(std::min_element(model_.skip.begin(), model_.skip.end()) - model_.skip.begin())] = true;
    }
    nlohmann::json answers = nlohmann::json::object(), sensitivity = nlohmann::json::object();
    for (std::size_t a = 0; a < values.size(); ++a) {
      const std::string& id = block_.attributes[a].id;
      if (!answered[a]) continue;
      answers[id] = values[a];
      ++answered_counts_[a][static_cast<std::size_t>(values[a])];
      if (model_.dirichlet) {
        sensitivity[id] = std::clamp(GammaDraw(*model_.dirichlet, random), kLeastWeight, kLargestWeight);
      } else if (!model_.sensitivity_cumulative.empty()) {
        static const char* kLevels[] = {"more_private", "usual", "less_private"};
        sensitivity[id] = kLevels[deniable::Draw(model_.sensitivity_cumulative[a], random)];
      }
    }
    return nlohmann::json{{"answers", answers}, {"sensitivity", sensitivity}};
  }

  // The joint of some attributes (ids), in the cross-tab's cell order, with
  // each source weighted: by the drawn respondents (their own joint) or by
  // the truth's probabilities (the population's).
  std::vector<double> JointOf(const nlohmann::json& ids, const std::vector<double>& source_weights) const {
    std::vector<int> members;
    for (const auto& id : ids) members.push_back(block_.IndexOf(id.get<std::string>()));
    std::size_t cells = 1;
    for (int a : members) cells *= static_cast<std::size_t>(model_.sizes[static_cast<std::size_t>(a)]);
    std::vector<double> joint(cells, 0.0);
    double total = 0.0;
    for (std::size_t source = 0; source < model_.sources.size(); ++source) {
      std::size_t cell = 0;
      for (int a : members) {
        cell = cell * static_cast<std::size_t>(model_.sizes[static_cast<std::size_t>(a)]) +
               static_cast<std::size_t>(model_.sources[source][static_cast<std::size_t>(a)]);
      }
      joint[cell] += source_weights[source];
      total += source_weights[source];
    }
    for (double& f : joint) f = total > 0.0 ? f / total : 0.0;
    return joint;
  }

  std::vector<double> DrawnWeights() const { return std::vector<double>(source_counts_.begin(), source_counts_.end()); }

  // The sources' probabilities. Skips are drawn independently of the values,
  // so those who answer an attribute are a sample of the whole population.
  std::vector<double> PopulationWeights() const {
    std::vector<double> weights;
    for (std::size_t source = 0; source < model_.cumulative.size(); ++source) {
      weights.push_back(model_.cumulative[source] - (source == 0 ? 0.0 : model_.cumulative[source - 1]));
    }
    return weights;
  }

  const BlockDefinition& block_;
  TruthModel model_;
  std::vector<std::int64_t> source_counts_;
  std::vector<std::vector<std::int64_t>> answered_counts_;
};

Status ReadWeights(const nlohmann::json& weights, const std::string& where, TruthModel& model) {
  std::size_t cells = 1;
  for (int size : model.sizes) {
    cells *= static_cast<std::size_t>(size);
    if (cells > kMaxTruthCells) return MakeError(where + ": the joint has more than 2^20 cells; give \"rows\" instead");
  }
  if (!weights.is_array() || weights.size() != cells) {
    return MakeError(where + ": must be an array of " + std::to_string(cells) +
                     " non-negative weights, one per joint cell (first attribute most significant)");
  }
  double total = 0.0;
  for (std::size_t cell = 0; cell < cells; ++cell) {
    const auto& w = weights[cell];
    if (!w.is_number() || !std::isfinite(w.get<double>()) || w.get<double>() < 0.0) {
      return MakeError(where + "[" + std::to_string(cell) + "]: must be a finite non-negative weight");
    }
    if (w.get<double>() == 0.0) continue;
    std::vector<int> values(model.sizes.size());
    std::size_t rest = cell;
    for (std::size_t a = model.sizes.size(); a-- > 0;) {
      values[a] = static_cast<int>(rest % static_cast<std::size_t>(model.sizes[a]));
      rest /= static_cast<std::size_t>(model.sizes[a]);
    }
    total += w.get<double>();
    model.sources.push_back(std::move(values));
    model.cumulative.push_back(total);
  }
  if (total <= 0.0) return MakeError(where + ": weights must not all be zero");
  for (double& c : model.cumulative) c /= total;
  return OkStatus();
}

Status ReadRows(const nlohmann::json& rows, const std::string& where, TruthModel& model) {
  if (!rows.is_array() || rows.empty() || rows.size() > 10000000) {
    return MakeError(where + ": must be an array of 1 to 10^7 rows, each one option index per attribute");
  }
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const std::string row = where + "[" + std::to_string(r) + "]";
    if (!rows[r].is_array() || rows[r].size() != model.sizes.size()) {
      return MakeError(row + ": must hold " + std::to_string(model.sizes.size()) + " option indices");
    }
    std::vector<int> values;
    for (std::size_t a = 0; a < model.sizes.size(); ++a) {
      const auto& v = rows[r][a];
      if (!v.is_number_integer() || v.get<long long>() < 0 || v.get<long long>() >= model.sizes[a]) {
        return MakeError(row + "[" + std::to_string(a) + "]: must be an option index from 0 to " +
                         std::to_string(model.sizes[a] - 1));
      }
      values.push_back(v.get<int>());
    }
    model.sources.push_back(std::move(values));
    model.cumulative.push_back(static_cast<double>(r + 1) / static_cast<double>(rows.size()));
  }
  model.rows = true;
  return OkStatus();
}

Status ReadSplit(const BlockDefinition& block, const nlohmann::json& split, const std::string& where, TruthModel& model) {
  DENIABLE_TRY(RequireObject(split, where));
  DENIABLE_TRY(RejectUnknownFields(split, {"dirichlet", "sensitivity"}, where));
  if (split.contains("dirichlet")) {
    const auto& alpha = split.at("dirichlet");
    if (!alpha.is_number() || !(alpha.get<double>() >= 0.05 && alpha.get<double>() <= 1000.0)) {
      return MakeError(where + ".dirichlet: must be a concentration from 0.05 to 1000, but is " + alpha.dump());
    }
    model.dirichlet = alpha.get<double>();
    return OkStatus();
  }
  if (!split.contains("sensitivity")) return OkStatus();
  const auto& levels = split.at("sensitivity");
  DENIABLE_TRY(RequireObject(levels, where + ".sensitivity"));
  model.sensitivity_cumulative.assign(block.attributes.size(), {0.0, 1.0, 1.0});  // default: usual
  for (const auto& item : levels.items()) {
    const int a = block.IndexOf(item.key());
    const std::string path = where + ".sensitivity." + item.key();
    if (a < 0) return MakeError(path + ": no such attribute");
    const auto& p = item.value();
    if (!p.is_array() || p.size() != 3) return MakeError(path + ": must be [P(more private), P(usual), P(less private)]");
    double total = 0.0;
    std::vector<double> cumulative;
    for (const auto& v : p) {
      if (!v.is_number() || v.get<double>() < 0.0) return MakeError(path + ": probabilities must be non-negative");
      total += v.get<double>();
      cumulative.push_back(total);
    }
    if (total <= 0.0) return MakeError(path + ": probabilities must not all be zero");
    for (double& c : cumulative) c /= total;
    model.sensitivity_cumulative[static_cast<std::size_t>(a)] = cumulative;
  }
  return OkStatus();
}

}  // namespace

double GammaDraw(double alpha, RandomSource& random) {
  if (alpha < 1.0) {
    const double u = UniformUnit(random);
    return GammaDraw(alpha + 1.0, random) * std::pow(u > 0.0 ? u : 1e-300, 1.0 / alpha);
  }
  const double d = alpha - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    const double x = StandardNormal(random);
    const double v = std::pow(1.0 + c * x, 3.0);
    if (v <= 0.0) continue;
    const double u = UniformUnit(random);
    if (u > 0.0 && std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
  }
}

Result<std::unique_ptr<TruthSampler>> ParseBlockTruth(const BlockDefinition& block, const nlohmann::json& entry,
                                                      const std::string& where) {
  DENIABLE_TRY(RequireObject(entry, where));
  DENIABLE_TRY(RejectUnknownFields(entry, {"weights", "rows", "attribute_skip", "split"}, where));
  TruthModel model;
  model.sizes = block.sizes();
  if (entry.contains("weights") == entry.contains("rows")) {
    return MakeError(where + ": give the joint distribution as exactly one of \"weights\" and \"rows\"");
  }
  DENIABLE_TRY(entry.contains("weights") ? ReadWeights(entry.at("weights"), where + ".weights", model)
                                         : ReadRows(entry.at("rows"), where + ".rows", model));
  model.skip.assign(block.attributes.size(), 0.0);
  if (entry.contains("attribute_skip")) {
    const auto& skip = entry.at("attribute_skip");
    DENIABLE_TRY(RequireObject(skip, where + ".attribute_skip"));
    for (const auto& item : skip.items()) {
      const int a = block.IndexOf(item.key());
      const std::string path = where + ".attribute_skip." + item.key();
      if (a < 0) return MakeError(path + ": no such attribute");
      const auto& rate = item.value();
      if (!rate.is_number() || !(rate.get<double>() >= 0.0 && rate.get<double>() < 1.0)) {
        return MakeError(path + ": must be a rate in [0, 1), but is " + rate.dump());
      }
      model.skip[static_cast<std::size_t>(a)] = rate.get<double>();
    }
  }
  if (entry.contains("split")) DENIABLE_TRY(ReadSplit(block, entry.at("split"), where + ".split", model));
  return std::unique_ptr<TruthSampler>(std::make_unique<BlockTruth>(block, std::move(model)));
}

Result<nlohmann::json> BlockTruthFromTable(const BlockDefinition& block, const std::vector<std::vector<std::string>>& table,
                                           const nlohmann::json& entry, const std::string& where) {
  if (table.empty()) return MakeError(where + ".csv: no header row");
  const auto& header = table.front();
  const nlohmann::json columns = entry.contains("columns") ? entry.at("columns") : nlohmann::json::object();
  if (!columns.is_object()) return MakeError(where + ".columns: must map attribute ids to header names");
  for (const auto& item : columns.items()) {
    if (block.IndexOf(item.key()) < 0) return MakeError(where + ".columns." + item.key() + ": no such attribute");
  }
  std::vector<std::size_t> column_of;
  for (const auto& attribute : block.attributes) {
    const std::string name = columns.contains(attribute.id) && columns.at(attribute.id).is_string()
                                 ? columns.at(attribute.id).get<std::string>()
                                 : attribute.id;
    const auto found = std::find(header.begin(), header.end(), name);
    if (found == header.end()) {
      return MakeError(where + ".csv: no column \"" + name + "\" for attribute \"" + attribute.id + "\" in the header");
    }
    column_of.push_back(static_cast<std::size_t>(found - header.begin()));
  }
  auto rows = nlohmann::json::array();
  for (std::size_t r = 1; r < table.size(); ++r) {
    if (table[r].empty()) continue;  // a blank line
    auto row = nlohmann::json::array();
    for (std::size_t a = 0; a < block.attributes.size(); ++a) {
      const std::string cell = column_of[a] < table[r].size() ? table[r][column_of[a]] : "";
      const auto& options = block.attributes[a].options;
      const auto option = std::find(options.begin(), options.end(), cell);
      if (option == options.end()) {
        return MakeError(where + ".csv row " + std::to_string(r + 1) + ": \"" + cell + "\" is not an option of \"" +
                         block.attributes[a].id + "\"");
      }
      row.push_back(option - options.begin());
    }
    rows.push_back(std::move(row));
  }
  if (rows.empty()) return MakeError(where + ".csv: no data rows below the header");
  nlohmann::json resolved = entry;
  resolved.erase("csv");
  resolved.erase("columns");
  resolved["rows"] = std::move(rows);
  return resolved;
}

std::string BlockSimulationText(const nlohmann::json& result) {
  std::string text = "  block, " + result["mode"].get<std::string>() + " mode, n = " + std::to_string(result["n"].get<long long>());
  if (result["errors"].contains("coverage_of")) {
    text += result["errors"]["coverage_of"] == "population"
                ? ", intervals for the population (coverage of its shares)"
                : ", intervals for these respondents (coverage of their own shares)";
  }
  text += "\n";
  char line[256];
  for (std::size_t a = 0; a < result["attributes"].size(); ++a) {
    const auto& attribute = result["attributes"][a];
    const auto& errors = result["errors"]["attributes"][a];
    std::snprintf(line, sizeof line, "  %-20s n = %-8lld AVD %.4f (consistent %.4f), 95%% CI coverage %.0f%%\n",
                  attribute["id"].get<std::string>().c_str(), attribute["n"].get<long long>(),
                  errors["avd"].get<double>(), errors["consistent_avd"].get<double>(),
                  100.0 * errors["ci_coverage"].get<double>());
    text += line;
  }
  const auto& crosstab = result["crosstab"];
  if (crosstab.contains("error")) return text + "  cross-tab: " + crosstab["error"].get<std::string>() + "\n";
  std::string ids;
  for (const auto& id : crosstab["attributes"]) ids += (ids.empty() ? "" : " x ") + id.get<std::string>();
  const auto& errors = result["errors"]["crosstab"];
  std::snprintf(line, sizeof line, "  cross-tab %s (situation %d): AVD %.4f (consistent)", ids.c_str(),
                crosstab["situation"].get<int>(), errors["consistent_avd"].get<double>());
  text += line;
  if (errors["ci_coverage"].is_number()) {
    std::snprintf(line, sizeof line, ", 95%% CI coverage %.0f%%", 100.0 * errors["ci_coverage"].get<double>());
    text += line;
  }
  return text + "\n";
}

}  // namespace deniable
