#include "core/kinds/numeric/numeric_truth.h"

#include <algorithm>
#include <cmath>

#include "core/common/json_fields.h"
#include "core/common/validation.h"

namespace deniable {
namespace {

constexpr double kTwoPi = 6.283185307179586476925286766559;

// A distribution on the real line (before truncation to [a, b]).
class Distribution {
 public:
  virtual ~Distribution() = default;
  virtual double DrawUntruncated(RandomSource& random) const = 0;
};

class UniformDistribution final : public Distribution {
 public:
  explicit UniformDistribution(NumericRange range) : range_(range) {}
  double DrawUntruncated(RandomSource& random) const override {
    return range_.low + range_.width() * UniformUnit(random);
  }

 private:
  NumericRange range_;
};

class NormalDistribution final : public Distribution {
 public:
  NormalDistribution(double mean, double sd) : mean_(mean), sd_(sd) {}
  double DrawUntruncated(RandomSource& random) const override { return mean_ + sd_ * StandardNormal(random); }

 private:
  double mean_, sd_;
};

class ChiSquareDistribution final : public Distribution {
 public:
  ChiSquareDistribution(int df, double location, double scale) : df_(df), location_(location), scale_(scale) {}
  double DrawUntruncated(RandomSource& random) const override {
    double sum = 0.0;
    for (int i = 0; i < df_; ++i) {
      const double z = StandardNormal(random);
      sum += z * z;
    }
    return location_ + scale_ * sum;
  }

 private:
  int df_;
  double location_, scale_;
};

class MixtureDistribution final : public Distribution {
 public:
  MixtureDistribution(std::vector<double> cumulative_weights, std::vector<std::unique_ptr<const Distribution>> parts)
      : cumulative_(std::move(cumulative_weights)), parts_(std::move(parts)) {}
  double DrawUntruncated(RandomSource& random) const override {
    const double u = UniformUnit(random);
    const auto index = std::min<std::size_t>(
        static_cast<std::size_t>(std::upper_bound(cumulative_.begin(), cumulative_.end(), u) - cumulative_.begin()),
        parts_.size() - 1);
    return parts_[index]->DrawUntruncated(random);
  }

 private:
  std::vector<double> cumulative_;
  std::vector<std::unique_ptr<const Distribution>> parts_;
};

// A distribution truncated to the range by rejection.
class TruncatedTruth final : public NumericTruth {
 public:
  TruncatedTruth(std::unique_ptr<const Distribution> distribution, NumericRange range, std::string where)
      : distribution_(std::move(distribution)), range_(range), where_(std::move(where)) {}
  Result<double> Draw(RandomSource& random) const override {
    for (int attempt = 0; attempt < kMaxTruncationAttempts; ++attempt) {
      const double x = distribution_->DrawUntruncated(random);
      if (x >= range_.low && x <= range_.high) return x;
    }
    return MakeError(where_ + ": " + std::to_string(kMaxTruncationAttempts) +
                     " draws in a row fell outside the question's range [" + FormatNumber(range_.low) + ", " +
                     FormatNumber(range_.high) + "]: the distribution has (almost) no mass there");
  }

 private:
  std::unique_ptr<const Distribution> distribution_;
  NumericRange range_;
  std::string where_;
};

class EmpiricalTruth final : public NumericTruth {
 public:
  explicit EmpiricalTruth(std::vector<double> values) : values_(std::move(values)) {}
  Result<double> Draw(RandomSource& random) const override {
    return values_[static_cast<std::size_t>(UniformBelow(random, values_.size()))];
  }
  std::size_t rows() const override { return values_.size(); }
  double Row(std::size_t row) const override { return values_[row]; }

 private:
  std::vector<double> values_;
};

Result<double> ReadPositive(const nlohmann::json& entry, const char* field, const std::string& where) {
  auto value = ReadFiniteNumber(entry, field, where);
  if (!value) return MakeError(value.error());
  if (*value <= 0.0) {
    return MakeError(JoinPath(where, field) + ": must be a finite number > 0, but is " + entry.at(field).dump());
  }
  return value;
}

Result<double> ReadNumberOr(const nlohmann::json& entry, const char* field, double fallback,
                                  const std::string& where) {
  if (!entry.contains(field)) return fallback;
  return ReadFiniteNumber(entry, field, where);
}

Result<std::unique_ptr<const Distribution>> ParseNormal(const nlohmann::json& entry, const std::string& where) {
  DENIABLE_TRY(RejectUnknownFields(entry, {"distribution", "mean", "sd", "weight"}, where));
  DENIABLE_ASSIGN_OR_RETURN(auto mean, ReadFiniteNumber(entry, "mean", where));
  DENIABLE_ASSIGN_OR_RETURN(auto sd, ReadPositive(entry, "sd", where));
  return std::unique_ptr<const Distribution>(new NormalDistribution(mean, sd));
}

Result<std::unique_ptr<const Distribution>> ParseChiSquare(const nlohmann::json& entry, const std::string& where) {
  DENIABLE_TRY(RejectUnknownFields(entry, {"distribution", "df", "location", "scale", "weight"}, where));
  DENIABLE_ASSIGN_OR_RETURN(auto df, ReadInteger(entry, "df", 1, kMaxChiSquareDegrees, where));
  DENIABLE_ASSIGN_OR_RETURN(auto location, ReadNumberOr(entry, "location", 0.0, where));
  DENIABLE_ASSIGN_OR_RETURN(auto scale,
                            entry.contains("scale") ? ReadPositive(entry, "scale", where) : Result<double>(1.0));
  return std::unique_ptr<const Distribution>(new ChiSquareDistribution(static_cast<int>(df), location, scale));
}

Result<std::unique_ptr<const Distribution>> ParseDistribution(const nlohmann::json& entry, NumericRange range,
                                                              const std::string& where, bool in_mixture);

Result<std::unique_ptr<const Distribution>> ParseMixture(const nlohmann::json& entry, NumericRange range,
                                                         const std::string& where) {
  DENIABLE_TRY(RejectUnknownFields(entry, {"distribution", "components"}, where));
  const std::string path = JoinPath(where, "components");
  if (!entry.contains("components") || !entry.at("components").is_array() || entry.at("components").empty()) {
    return MakeError(path + ": must be a non-empty array of {\"weight\": w, \"distribution\": ...}");
  }
  std::vector<double> cumulative;
  std::vector<std::unique_ptr<const Distribution>> parts;
  double total = 0.0;
  for (std::size_t i = 0; i < entry.at("components").size(); ++i) {
    const auto& component = entry.at("components")[i];
    const std::string at = path + "[" + std::to_string(i) + "]";
    DENIABLE_TRY(RequireObject(component, at));
    DENIABLE_ASSIGN_OR_RETURN(auto weight, ReadPositive(component, "weight", at));
    DENIABLE_ASSIGN_OR_RETURN(auto part, ParseDistribution(component, range, at, true));
    total += weight;
    cumulative.push_back(total);
    parts.push_back(std::move(part));
  }
  for (double& sum : cumulative) sum /= total;
  return std::unique_ptr<const Distribution>(new MixtureDistribution(std::move(cumulative), std::move(parts)));
}

Result<std::unique_ptr<const Distribution>> ParseDistribution(const nlohmann::json& entry, NumericRange range,
                                                              const std::string& where, bool in_mixture) {
  DENIABLE_ASSIGN_OR_RETURN(auto name, ReadString(entry, "distribution", 32, true, where));
  if (name == "uniform") {
    DENIABLE_TRY(RejectUnknownFields(entry, {"distribution", "weight"}, where));
    return std::unique_ptr<const Distribution>(new UniformDistribution(range));
  }
  if (name == "normal") return ParseNormal(entry, where);
  if (name == "chi_square") return ParseChiSquare(entry, where);
  if (name == "mixture" && !in_mixture) return ParseMixture(entry, range, where);
  if (name == "mixture") return MakeError(JoinPath(where, "distribution") + ": a mixture component cannot be a mixture");
  return MakeError(JoinPath(where, "distribution") +
                   ": must be \"uniform\", \"normal\", \"chi_square\" or \"mixture\", but is \"" + name + "\"");
}

Result<std::unique_ptr<const NumericTruth>> ParseValues(const nlohmann::json& entry, NumericRange range,
                                                        const std::string& where) {
  DENIABLE_TRY(RejectUnknownFields(entry, {"values"}, where));
  const std::string path = JoinPath(where, "values");
  const auto& values = entry.at("values");
  if (!values.is_array() || values.empty()) return MakeError(path + ": must be a non-empty array of numbers");
  std::vector<double> parsed;
  parsed.reserve(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto& value = values[i];
    if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < range.low ||
        value.get<double>() > range.high) {
      return MakeError(path + "[" + std::to_string(i) + "]: must be a number in the question's range [" +
                       FormatNumber(range.low) + ", " + FormatNumber(range.high) + "], but is " + value.dump());
    }
    parsed.push_back(value.get<double>());
  }
  return std::unique_ptr<const NumericTruth>(new EmpiricalTruth(std::move(parsed)));
}

}  // namespace

double StandardNormal(RandomSource& random) {
  // 1 - U is in (0, 1], so the logarithm is finite.
  const double u1 = 1.0 - UniformUnit(random);
  const double u2 = UniformUnit(random);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(kTwoPi * u2);
}

Result<std::unique_ptr<const NumericTruth>> ParseNumericTruth(const nlohmann::json& entry, NumericRange range,
                                                              const std::string& where) {
  DENIABLE_TRY(RequireObject(entry, where));
  if (entry.contains("csv")) {
    return MakeError(JoinPath(where, "csv") +
                     ": CSV truths are read by the command-line tool; core takes their values as {\"values\": [...]}");
  }
  if (entry.contains("weight")) return MakeError(JoinPath(where, "weight") + ": only mixture components have a weight");
  if (entry.contains("values")) return ParseValues(entry, range, where);
  if (!entry.contains("distribution")) {
    return MakeError(where + ": must have \"distribution\" (uniform, normal, chi_square, mixture), \"csv\" or \"values\"");
  }
  DENIABLE_ASSIGN_OR_RETURN(auto distribution, ParseDistribution(entry, range, where, false));
  return std::unique_ptr<const NumericTruth>(new TruncatedTruth(std::move(distribution), range, where));
}

}  // namespace deniable
