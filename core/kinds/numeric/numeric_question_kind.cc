#include "core/kinds/numeric/numeric_question_kind.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "core/common/json_fields.h"
#include "core/common/validation.h"
#include "core/kinds/numeric/numeric_estimate_options.h"
#include "core/kinds/numeric/numeric_results.h"
#include "core/kinds/numeric/numeric_statistics.h"
#include "core/kinds/numeric/numeric_simulation.h"
#include "core/kinds/open/open_numeric_kind.h"
#include "core/kinds/open/open_privacy.h"
#include "core/numeric/numeric_mechanism_factory.h"
#include "core/survey/question_fields.h"
#include "core/survey/survey.h"

namespace deniable {

KindEntry NumericQuestionKind::Entry() {
  return {kType, &Parse, PublicNumericEstimateOptionNames(), &CanonicalNumericEstimateOptions};
}

// The client's parse decides the variant (open or local); the full kind is
// built from the client it gives.
Result<std::shared_ptr<const QuestionKind>> NumericQuestionKind::Parse(const nlohmann::json& object,
                                                                       const std::string& where) {
  DENIABLE_ASSIGN_OR_RETURN(auto client, NumericClient::Parse(object, where));
  if (const auto* open = dynamic_cast<const OpenNumericClient*>(client.get())) return OpenNumericKind::Create(*open);
  return std::shared_ptr<const QuestionKind>(new NumericQuestionKind(dynamic_cast<const NumericClient&>(*client)));
}

namespace {

// For discrete reports: the atom a value names (a value printed and parsed
// again is the same double; a relative 1e-12 allows other printers), or nullopt.
std::optional<double> NearestAtom(const std::vector<double>& atoms, double value) {
  const auto above = std::lower_bound(atoms.begin(), atoms.end(), value);
  for (auto at : {above, above == atoms.begin() ? above : above - 1}) {
    if (at != atoms.end() && std::fabs(*at - value) <= 1e-12 * std::max(1.0, std::fabs(*at))) return *at;
  }
  return std::nullopt;
}

}  // namespace

// Exactly values_per_report finite numbers, each one a value the mechanism can produce.
Result<std::unique_ptr<const KindResponse>> NumericQuestionKind::Decode(const nlohmann::json& wire) const {
  const int count = mechanism_->values_per_report();
  if (!wire.is_array() || wire.size() != static_cast<std::size_t>(count)) {
    return MakeError("a " + mechanism_->name() + " report must be an array of " + std::to_string(count) +
                     (count == 1 ? " number" : " numbers"));
  }
  const NumericRange possible = mechanism_->possible_values();
  std::vector<double> values;
  for (std::size_t i = 0; i < wire.size(); ++i) {
    const auto& value = wire[i];
    if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < possible.low ||
        value.get<double>() > possible.high) {
      return MakeError("value " + std::to_string(i) + " must be a number in [" + FormatNumber(possible.low) + ", " +
                       FormatNumber(possible.high) + "], but is " + value.dump());
    }
    values.push_back(value.get<double>());
  }
  if (const auto atoms = mechanism_->report_atoms(); !atoms.empty()) {
    for (std::size_t i = 0; i < values.size(); ++i) {
      const auto atom = NearestAtom(atoms, values[i]);
      if (!atom) {
        return MakeError("value " + std::to_string(i) + " must be one of the " + std::to_string(atoms.size()) +
                         " values a " + mechanism_->name() + " report can take, but is " + FormatNumber(values[i]));
      }
      values[i] = *atom;
    }
  }
  return std::unique_ptr<const KindResponse>(std::make_unique<NumericResponse>(std::move(values)));
}

std::unique_ptr<KindAggregate> NumericQuestionKind::NewAggregate() const {
  // The mechanism factories guarantee a finite output range, so this cannot fail.
  return std::make_unique<NumericAggregate>(0, *NumericHistogram::ForMechanism(*mechanism_),
                                            mechanism_->report_atoms());
}

Status NumericQuestionKind::ValidateEstimateOptions(const nlohmann::json& options) const {
  DENIABLE_ASSIGN_OR_RETURN(auto parsed, ParseNumericEstimateOptions(options));
  return ValidateNumericEstimateOptions(*this, parsed);
}

Result<nlohmann::json> NumericQuestionKind::Estimate(const KindAggregate& aggregate, const nlohmann::json& options,
                                                     const std::function<bool()>& cancelled) const {
  DENIABLE_ASSIGN_OR_RETURN(auto parsed, ParseNumericEstimateOptions(options));
  return NumericResultToJson(*this, static_cast<const NumericAggregate&>(aggregate), parsed, cancelled);
}

// The unbiased mean from the reports first (mechanisms with unbiased
// reports: its standard error and CI), then levels questions' HierA mean and
// each level's share (count: the reports naming that level), then the summary
// statistics of the estimated distribution in their order (mean, std_dev,
// median, quartiles, skewness, kurtosis) with their 95% bootstrap intervals.
std::vector<CsvRow> NumericQuestionKind::CsvRows(const nlohmann::json& result) const {
  std::vector<CsvRow> rows;
  const auto mean = result.find("unbiased_mean");
  if (mean != result.end() && mean->is_object()) {
    rows.push_back({"", "unbiased_mean", mean->at("value"), mean->at("std_error"), mean->at("ci_low"),
                    mean->at("ci_high"), nullptr, nullptr});
  }
  // The mechanism's own estimates (levels: HierA's mean and each level's share of answers).
  const auto own = result.find("mechanism_estimates");
  if (own != result.end() && own->is_object() && own->contains("mean")) {
    const auto& mean = own->at("mean");
    rows.push_back({"", "hiera_mean", mean.at("value"), mean.at("std_error"), mean.at("ci_low"), mean.at("ci_high"),
                    nullptr, nullptr});
    for (const auto& level : own->at("levels")) {
      rows.push_back({"level " + level.at("level").dump(), "share", level.at("share"), level.at("std_error"),
                      level.at("ci_low"), level.at("ci_high"), nullptr, level.at("reported")});
    }
  }
  if (!result.contains("statistics")) return rows;  // no reports yet
  const auto& statistics = result.at("statistics");
  for (const char* name : kSummaryStatisticNames) {
    if (!statistics.contains(name)) continue;
    const auto& statistic = statistics.at(name);
    rows.push_back({"", name, statistic.at("value"), nullptr, statistic.at("low"), statistic.at("high"), nullptr, nullptr});
  }
  return rows;
}

Result<std::unique_ptr<TruthSampler>> NumericQuestionKind::ParseTruth(const nlohmann::json& entry,
                                                                      const std::string& where) const {
  return ParseNumericTruthSampler(*this, entry, where);
}

std::string NumericQuestionKind::SimulationText(const nlohmann::json& result) const {
  return NumericSimulationText(result);
}

std::string_view NumericAggregate::type() const { return NumericQuestionKind::kType; }

void NumericAggregate::Add(const KindResponse& response) {
  // Decode checked every value is finite, which is all the histogram requires.
  (void)AddValues(static_cast<const NumericResponse&>(response).values);
}

Status NumericAggregate::AddValues(const std::vector<double>& values) {
  std::vector<std::size_t> atoms;
  if (!atoms_.empty()) {
    for (double value : values) {
      const auto at = std::lower_bound(atoms_.begin(), atoms_.end(), value);
      if (at == atoms_.end() || *at != value) return MakeError("value " + FormatNumber(value) + " is not a report value");
      atoms.push_back(static_cast<std::size_t>(at - atoms_.begin()));
    }
  }
  DENIABLE_TRY(histogram_.Add(values));
  for (std::size_t atom : atoms) ++atom_counts_[atom];
  ++n_;
  return OkStatus();
}

Status NumericAggregate::Merge(const KindAggregate& other) {
  if (other.type() != type()) return MakeError("a question of another kind");
  const auto& theirs = static_cast<const NumericAggregate&>(other);
  if (theirs.atoms_ != atoms_) return MakeError("a mechanism with other report values");
  if (auto merged = histogram_.Merge(theirs.histogram_); !merged) {
    return MakeError("a different histogram (" + merged.error() + ")");
  }
  for (std::size_t i = 0; i < atom_counts_.size(); ++i) atom_counts_[i] += theirs.atom_counts_[i];
  n_ += theirs.n_;
  return OkStatus();
}

const NumericQuestionKind& NumericKindOf(const Question& question) {
  assert(question.kind->type() == NumericQuestionKind::kType);
  return static_cast<const NumericQuestionKind&>(*question.kind);
}

}  // namespace deniable

namespace deniable {

std::vector<ReportColumn> NumericQuestionKind::Columns() const {
  const int count = mechanism_->values_per_report();
  if (count == 1) return {{"", "the reported value (randomised: not the answer)", nullptr}};
  std::vector<ReportColumn> columns;
  for (int i = 0; i < count; ++i) {
    columns.push_back({".value_" + std::to_string(i),
                       "reported value " + std::to_string(i + 1) + " of " + std::to_string(count), nullptr});
  }
  return columns;
}

std::vector<nlohmann::json> NumericQuestionKind::ColumnValues(const nlohmann::json& wire) const {
  std::vector<nlohmann::json> values(static_cast<std::size_t>(mechanism_->values_per_report()), nullptr);
  if (!wire.is_array()) return values;
  for (std::size_t i = 0; i < values.size() && i < wire.size(); ++i) {
    if (wire[i].is_number()) values[i] = wire[i];
  }
  return values;
}

nlohmann::json NumericQuestionKind::Channel() const {
  const NumericRange input = mechanism_->input_range();
  const NumericRange output = mechanism_->output_range();
  const NumericRange possible = mechanism_->possible_values();
  nlohmann::json channel = mechanism_->ParamsToJson();
  channel["name"] = mechanism_->name();
  channel["epsilon"] = mechanism_->epsilon() ? nlohmann::json(*mechanism_->epsilon()) : nlohmann::json();
  channel["input_range"] = {input.low, input.high};
  channel["output_range"] = {output.low, output.high};
  channel["possible_values"] = {possible.low, possible.high};
  channel["values_per_report"] = mechanism_->values_per_report();
  channel["unbiased_reports"] = mechanism_->UnbiasedValueVariance((input.low + input.high) / 2).has_value();
  if (const auto atoms = mechanism_->report_atoms(); !atoms.empty()) channel["report_values"] = atoms;
  if (const auto described = mechanism_->Describe(); !described.is_null()) channel["described"] = described;
  return channel;
}

}  // namespace deniable
