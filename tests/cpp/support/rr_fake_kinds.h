// Test-only question kinds with channels, for the regression analysis's tests
// (tests/cpp/core/analysis/rr_regression_test.cpp): an open categorical and an open numeric
// question (ExactCategory / ExactValue) and a randomised categorical one whose
// channel is a given matrix M(r, c) = P(report r | true c). Only what the
// analysis reads is implemented; reports are built directly (a Report's
// responses in the survey's order), not through the wire form.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "core/survey/question_kind.h"
#include "core/survey/survey.h"

namespace deniable::testing {

struct FakeResponse final : KindResponse {
  explicit FakeResponse(double v) : value(v) {}
  double value;  // a category's index, or a number
};

class FakeKind : public QuestionKind {
 public:
  std::string_view type() const override { return "fake"; }
  nlohmann::json DefinitionToJson() const override { return nlohmann::json::object(); }
  nlohmann::json MechanismToJson() const override { return nlohmann::json::object(); }
  std::optional<double> epsilon() const override { return std::nullopt; }
  nlohmann::json PrivacyToJson() const override { return nlohmann::json::object(); }
  Result<nlohmann::json> Perturb(const nlohmann::json&, RandomSource&) const override { return MakeError("fake"); }
  nlohmann::json PageSummary() const override { return nlohmann::json::object(); }
  Result<std::unique_ptr<const KindResponse>> Decode(const nlohmann::json&) const override {
    return MakeError("fake");
  }
  std::unique_ptr<KindAggregate> NewAggregate() const override { return nullptr; }
  Status ValidateEstimateOptions(const nlohmann::json&) const override { return OkStatus(); }
  bool NeedsEstimation(const KindAggregate&) const override { return false; }
  Result<nlohmann::json> Estimate(const KindAggregate&, const nlohmann::json&,
                                  const std::function<bool()>&) const override {
    return MakeError("fake");
  }
  std::vector<CsvRow> CsvRows(const nlohmann::json&) const override { return {}; }
  Result<std::unique_ptr<TruthSampler>> ParseTruth(const nlohmann::json&, const std::string&) const override {
    return MakeError("fake");
  }
  std::string SimulationText(const nlohmann::json&) const override { return ""; }
};

class FakeCategoryChannel final : public CategoryChannel {
 public:
  FakeCategoryChannel(std::vector<std::string> labels, Eigen::MatrixXd channel, bool exact)
      : labels_(std::move(labels)), channel_(std::move(channel)), exact_(exact) {}
  std::size_t categories() const override { return labels_.size(); }
  std::vector<std::string> category_labels() const override { return labels_; }
  std::vector<double> Likelihood(const KindResponse& response) const override {
    const Eigen::RowVectorXd row = channel_.row(Index(response));
    return {row.data(), row.data() + row.size()};
  }
  std::vector<double> UnbiasedIndicators(const KindResponse& response) const override {
    const Eigen::VectorXd unit = Eigen::VectorXd::Unit(channel_.rows(), Index(response));
    const Eigen::VectorXd inverse = channel_.inverse() * unit;
    return {inverse.data(), inverse.data() + inverse.size()};
  }
  std::optional<std::size_t> ExactCategory(const KindResponse& response) const override {
    if (!exact_) return std::nullopt;
    return static_cast<std::size_t>(Index(response));
  }

 private:
  static Eigen::Index Index(const KindResponse& response) {
    return static_cast<Eigen::Index>(static_cast<const FakeResponse&>(response).value);
  }
  std::vector<std::string> labels_;
  Eigen::MatrixXd channel_;
  bool exact_;
};

class FakeCategorical final : public FakeKind {
 public:
  // An open question: the identity channel, answers sent as given.
  explicit FakeCategorical(std::vector<std::string> labels)
      : trust_(Trust::kOpen), channel_(labels, Eigen::MatrixXd::Identity(labels.size(), labels.size()), true) {}
  // A randomised question through `channel`.
  FakeCategorical(std::vector<std::string> labels, Eigen::MatrixXd channel)
      : trust_(Trust::kLocal), channel_(std::move(labels), std::move(channel), false) {}
  Trust trust() const override { return trust_; }
  const CategoryChannel* category_channel() const override { return &channel_; }

 private:
  Trust trust_;
  FakeCategoryChannel channel_;
};

class FakeNumeric final : public FakeKind {
 public:
  explicit FakeNumeric(Trust trust) : trust_(trust) {}
  Trust trust() const override { return trust_; }
  const ValueChannel* value_channel() const override { return &channel_; }

 private:
  class Channel final : public ValueChannel {
   public:
    double UnbiasedValue(const KindResponse& response) const override {
      return static_cast<const FakeResponse&>(response).value;
    }
    std::optional<double> ExactValue(const KindResponse& response) const override {
      return static_cast<const FakeResponse&>(response).value;
    }
  };
  Trust trust_;
  Channel channel_;
};

inline Question FakeQuestion(std::string id, std::shared_ptr<const QuestionKind> kind) {
  Question question;
  question.id = std::move(id);
  question.text = question.id;
  question.client = kind;
  question.kind = std::move(kind);
  return question;
}

}  // namespace deniable::testing
