// The two newest kinds on real public data: a rating grid on the Big Five
// Inventory (psych's `bfi`, 2,800 people rating 25 statements 1-6, with
// missing answers) and "choose all that apply" on the Eysenck Personality
// Inventory (psychTools' `epi`, 3,570 people answering 57 yes/no questions;
// a respondent's set is the questions of a checklist answered "yes").
// bench/fetch-kinds-data.sh extracts both tables from Debian's packages into
// build/data/ (not kept in this repository).
//
// The table is the population. Each replicate draws as many respondents as
// the table has rows, uniformly with replacement (seed fixed per replicate),
// and sends them through the product's own path: PerturbAnswers (the
// respondent's device), ParseReport (the server's validation), the survey
// aggregate, and SurveyResultsToJson (the dashboard's results), once for the
// population's intervals (the default) and once for these respondents'. A
// row missing any of the question's columns skips the question (an optional
// question left out), as a respondent who leaves a grid or a checklist
// unanswered does: the population is then the table's complete rows.
//
// Per mechanism and epsilon, per item or option: the population's value, the
// estimates' mean, the mean reported standard error beside the estimates'
// standard deviation over the replicates, the 95% intervals' coverage of the
// population's value, of the consistent interval and of these respondents'
// value (under "interval": "respondents"), and the mean width. Coverage is
// marked '<' when more than 3 Monte-Carlo standard errors,
// 3 sqrt(0.95 * 0.05 / R), below 0.95 (too little) and '>' above (conservative).
// --respondents N draws N respondents per replicate instead (small surveys).
//
//   build/kinds_real_data --grid build/data/bfi.csv --multiple build/data/epi.csv
//       [--replicates R] [--quick] [--seed S] [--respondents N]
//       [--grid-items A1,A2,A3,A4,A5] [--options V26,V31,V33,V35,V43,V45,V55,V57]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/common/seeded_random.h"
#include "core/kinds/grid/grid_advice.h"
#include "core/survey/aggregate.h"
#include "core/survey/report.h"
#include "core/survey/results.h"
#include "core/survey/survey.h"

namespace {

using namespace deniable;
using nlohmann::json;

// ---------------------------------------------------------------- the table
struct Table {
  std::vector<std::string> columns;
  std::vector<std::vector<std::optional<int>>> rows;  // nullopt: NA (an empty field)
};

[[noreturn]] void Fail(const std::string& message) {
  std::fprintf(stderr, "kinds_real_data: %s\n", message.c_str());
  std::exit(1);
}

std::vector<std::string> Split(const std::string& line, char separator) {
  std::vector<std::string> fields;
  std::stringstream stream(line);
  std::string field;
  while (std::getline(stream, field, separator)) fields.push_back(field);
  if (!line.empty() && line.back() == separator) fields.emplace_back();
  return fields;
}

Table ReadTable(const std::string& path) {
  std::ifstream file(path);
  if (!file) Fail("cannot read " + path + " (bash bench/fetch-kinds-data.sh writes it)");
  Table table;
  std::string line;
  std::getline(file, line);
  table.columns = Split(line, ',');
  while (std::getline(file, line)) {
    const auto fields = Split(line, ',');
    if (fields.size() != table.columns.size()) Fail(path + ": a row of " + std::to_string(fields.size()) + " fields");
    std::vector<std::optional<int>> row;
    for (const auto& field : fields) row.push_back(field.empty() ? std::nullopt : std::optional<int>(std::stoi(field)));
    table.rows.push_back(std::move(row));
  }
  return table;
}

std::vector<std::size_t> ColumnIndices(const Table& table, const std::vector<std::string>& names) {
  std::vector<std::size_t> indices;
  for (const auto& name : names) {
    const auto at = std::find(table.columns.begin(), table.columns.end(), name);
    if (at == table.columns.end()) Fail("no column " + name);
    indices.push_back(static_cast<std::size_t>(at - table.columns.begin()));
  }
  return indices;
}

// ---------------------------------------------------------------- statistics
// One interval-bearing estimate accumulated over replicates.
struct Cell {
  double truth = 0.0;  // the population's value
  int replicates = 0, estimated = 0, covered = 0, covered_consistent = 0, covered_respondents = 0;
  double sum = 0.0, squares = 0.0, se = 0.0, width = 0.0;

  // `result` holds estimate/std_error/ci_low/ci_high under the given keys; null estimate: not given.
  void Add(const json& estimate, const json& std_error, const json& low, const json& high) {
    ++replicates;
    if (!estimate.is_number() || !low.is_number() || !high.is_number()) return;
    ++estimated;
    const double x = estimate.get<double>();
    sum += x, squares += x * x;
    se += std_error.is_number() ? std_error.get<double>() : NAN;
    width += high.get<double>() - low.get<double>();
    covered += low.get<double>() <= truth && truth <= high.get<double>();
  }
  void AddConsistent(const json& low, const json& high) {
    if (low.is_number() && high.is_number()) covered_consistent += low.get<double>() <= truth && truth <= high.get<double>();
  }
  void AddRespondents(double own_truth, const json& low, const json& high) {
    if (low.is_number() && high.is_number()) {
      covered_respondents += low.get<double>() <= own_truth && own_truth <= high.get<double>();
    }
  }
  double Mean() const { return sum / estimated; }
  double Sd() const { return std::sqrt((squares - estimated * Mean() * Mean()) / (estimated - 1)); }
};

double Rate(int count, int of) { return of > 0 ? static_cast<double>(count) / of : NAN; }

// Coverage marked '<' when more than 3 Monte-Carlo standard errors below 0.95 (too little), '>' above (conservative).
std::string Coverage(int count, int of) {
  if (of == 0) return "    -  ";
  const double rate = Rate(count, of), band = 3.0 * std::sqrt(0.95 * 0.05 / of);
  char text[16];
  std::snprintf(text, sizeof text, "%6.3f%s", rate, rate < 0.95 - band ? "<" : rate > 0.95 + band ? ">" : " ");
  return text;
}

void PrintHeader(const char* what) {
  std::printf("  %-10s %7s %8s %8s %8s %8s %8s %8s %8s\n", what, "true", "mean est", "SE form", "SD emp", "cov pop",
              "cov cons", "cov resp", "width");
}

void PrintCell(const std::string& label, const Cell& cell, bool consistent = true, bool respondents = true) {
  if (cell.estimated == 0) {
    std::printf("  %-10s %7.4f  not estimated in %d of %d replicates\n", label.c_str(), cell.truth,
                cell.replicates - cell.estimated, cell.replicates);
    return;
  }
  std::printf("  %-10s %7.4f %8.4f %8.4f %8.4f %8s %8s %8s %8.4f%s\n", label.c_str(), cell.truth, cell.Mean(),
              cell.se / cell.estimated, cell.Sd(), Coverage(cell.covered, cell.replicates).c_str(),
              consistent ? Coverage(cell.covered_consistent, cell.replicates).c_str() : "    -  ",
              respondents ? Coverage(cell.covered_respondents, cell.replicates).c_str() : "    -  ",
              cell.width / cell.estimated,
              cell.estimated < cell.replicates ? (" (estimated in " + std::to_string(cell.estimated) + ")").c_str() : "");
}

// ---------------------------------------------------------------- the product's path
struct Study {
  Survey survey;
  std::vector<json> answers;  // per table row: every question's answer, or {} when the row skips them
  // Reads one replicate's results (population and respondents' intervals) and
  // how often each row was drawn.
  std::function<void(const json& population, const json& respondents, const std::vector<int>& draws)> read;
};

Survey ParseOrDie(const json& questions) {
  auto survey = ParseSurvey(
      {{"format", kSurveyFormat}, {"id", "real"}, {"version", 1}, {"title", "real data"}, {"questions", questions}});
  if (!survey) Fail("survey: " + survey.error());
  return std::move(*survey);
}

// Each replicate: `respondents` rows drawn uniformly with replacement (0: as many as the table has).
void RunReplicates(Study& study, int replicates, std::size_t respondents, std::uint64_t seed) {
  const std::size_t rows = study.answers.size();
  for (int r = 0; r < replicates; ++r) {
    SeededRandom random(seed * 1000003ULL + static_cast<std::uint64_t>(r));
    SurveyAggregate aggregate(study.survey);
    std::vector<int> draws(rows, 0);
    for (std::size_t i = 0; i < (respondents > 0 ? respondents : rows); ++i) {
      const auto row = static_cast<std::size_t>(UniformBelow(random, rows));
      ++draws[row];
      auto report = PerturbAnswers(study.survey, study.answers[row], random);
      if (!report) Fail("perturb: " + report.error());
      auto parsed = ParseReport(study.survey, *report);  // the server's validation
      if (!parsed) Fail("report: " + parsed.error());
      aggregate.Add(*parsed);
    }
    study.read(SurveyResultsToJson(study.survey, aggregate),
               SurveyResultsToJson(study.survey, aggregate, {{"interval", "respondents"}}), draws);
  }
}

struct Design {
  std::string id, mechanism;
  double epsilon;
};

std::vector<Design> Designs(const std::string& prefix, const std::vector<const char*>& mechanisms) {
  std::vector<Design> designs;
  for (double epsilon : {1.0, 4.0}) {
    for (const char* mechanism : mechanisms) {
      designs.push_back({prefix + "_" + mechanism + "_" + std::to_string(static_cast<int>(epsilon)), mechanism, epsilon});
    }
  }
  return designs;
}

// The study of one kind: each design a question of `type` (with `fields`),
// and each table row answering every design's question alike (or skipping them all).
Study MakeStudy(const std::vector<Design>& designs, const std::string& type, const std::string& text, const json& fields,
                const std::vector<std::optional<std::vector<int>>>& answers) {
  json questions = json::array();
  for (const auto& design : designs) {
    json question = {{"id", design.id}, {"text", text}, {"type", type}, {"required", false},
                     {"mechanism", {{"name", design.mechanism}, {"epsilon", design.epsilon}}}};
    question.update(fields);
    questions.push_back(question);
  }
  Study study{ParseOrDie(questions), {}, {}};
  for (const auto& answer : answers) {
    json entry = json::object();
    if (answer) {
      for (const auto& design : designs) entry[design.id] = *answer;
    }
    study.answers.push_back(entry);
  }
  return study;
}

const json& QuestionResult(const json& document, std::size_t q) { return document.at("questions").at(q); }

// ---------------------------------------------------------------- the grid
constexpr int kLevels = 6;

struct GridCells {
  std::vector<Cell> mean;                 // per item
  std::vector<std::vector<Cell>> levels;  // per item, per level
};

void GridStudy(const Table& table, const std::vector<std::string>& items, int replicates, std::size_t respondents,
               std::uint64_t seed) {
  const auto columns = ColumnIndices(table, items);
  const auto designs = Designs("grid", {"ordinal", "grr", "duchi"});
  std::vector<std::optional<std::vector<int>>> answers;  // level indices 0..5, nullopt: skipped
  std::vector<std::vector<double>> population(items.size(), std::vector<double>(kLevels, 0.0));
  int complete = 0;
  for (const auto& row : table.rows) {
    std::vector<int> levels;
    for (std::size_t c : columns) {
      if (!row[c]) break;
      if (*row[c] < 1 || *row[c] > kLevels) Fail("grid answers must be 1.." + std::to_string(kLevels));
      levels.push_back(*row[c] - 1);
    }
    if (levels.size() < columns.size()) {
      answers.emplace_back();
      continue;
    }
    ++complete;
    for (std::size_t i = 0; i < levels.size(); ++i) population[i][static_cast<std::size_t>(levels[i])] += 1.0;
    answers.emplace_back(levels);
  }
  json scale = json::array();
  for (int l = 1; l <= kLevels; ++l) scale.push_back(std::to_string(l));
  Study study = MakeStudy(designs, "grid", "How accurately do these describe you?", {{"items", items}, {"scale", scale}},
                          answers);
  std::vector<GridCells> cells(designs.size());
  for (auto& design_cells : cells) {
    design_cells.mean.resize(items.size());
    design_cells.levels.assign(items.size(), std::vector<Cell>(kLevels));
    for (std::size_t i = 0; i < items.size(); ++i) {
      double mean = 0.0;
      for (int l = 0; l < kLevels; ++l) {
        const double share = population[i][static_cast<std::size_t>(l)] / complete;
        design_cells.levels[i][static_cast<std::size_t>(l)].truth = share;
        mean += (l + 1) * share;
      }
      design_cells.mean[i].truth = mean;
    }
  }
  study.read = [&](const json& population_results, const json& respondents_results, const std::vector<int>& draws) {
    // These respondents' own distributions (the rows drawn that answer the grid).
    std::vector<std::vector<double>> own(items.size(), std::vector<double>(kLevels, 0.0));
    double answered = 0.0;
    for (std::size_t row = 0; row < draws.size(); ++row) {
      if (!answers[row] || draws[row] == 0) continue;
      answered += draws[row];
      for (std::size_t i = 0; i < items.size(); ++i) own[i][static_cast<std::size_t>((*answers[row])[i])] += draws[row];
    }
    for (std::size_t q = 0; q < designs.size(); ++q) {
      const json& result = QuestionResult(population_results, q);
      const json& respondents = QuestionResult(respondents_results, q);
      for (std::size_t i = 0; i < items.size(); ++i) {
        const json& mean = result["items"][i]["mean"];
        Cell& cell = cells[q].mean[i];
        cell.Add(mean["estimate"], mean["std_error"], mean["ci_low"], mean["ci_high"]);
        cell.AddConsistent(mean["consistent_ci_low"], mean["consistent_ci_high"]);
        double own_mean = 0.0;
        for (int l = 0; l < kLevels; ++l) own_mean += (l + 1) * own[i][static_cast<std::size_t>(l)] / answered;
        const json& own_interval = respondents["items"][i]["mean"];
        cell.AddRespondents(own_mean, own_interval["ci_low"], own_interval["ci_high"]);
        if (!result["items"][i]["levels"].is_array()) continue;  // duchi: the mean alone
        for (int l = 0; l < kLevels; ++l) {
          const json& level = result["items"][i]["levels"][static_cast<std::size_t>(l)];
          Cell& level_cell = cells[q].levels[i][static_cast<std::size_t>(l)];
          level_cell.Add(level["frequency"], level["std_error"], level["ci_low"], level["ci_high"]);
          level_cell.AddConsistent(level["consistent_ci_low"], level["consistent_ci_high"]);
          const json& own_level = respondents["items"][i]["levels"][static_cast<std::size_t>(l)];
          level_cell.AddRespondents(own[i][static_cast<std::size_t>(l)] / answered, own_level["ci_low"],
                                    own_level["ci_high"]);
        }
      }
    }
  };
  RunReplicates(study, replicates, respondents, seed);

  std::printf("## Rating grid on bfi: items");
  for (const auto& item : items) std::printf(" %s", item.c_str());
  std::printf(", scale 1-6; %zu rows, %d complete (the rest skip the grid); %d replicates of %zu respondents\n",
              table.rows.size(), complete, replicates, respondents > 0 ? respondents : table.rows.size());
  std::printf("Population distributions (levels 1..6):\n");
  for (std::size_t i = 0; i < items.size(); ++i) {
    std::printf("  %-4s", items[i].c_str());
    for (int l = 0; l < kLevels; ++l) std::printf(" %.3f", cells[0].levels[i][static_cast<std::size_t>(l)].truth);
    std::printf("   mean position %.3f\n", cells[0].mean[i].truth);
  }
  // The respondents expected to answer the grid (the draws are with replacement from all rows).
  const double drawn = static_cast<double>(respondents > 0 ? respondents : table.rows.size());
  const double answering = drawn * complete / static_cast<double>(table.rows.size());
  for (std::size_t q = 0; q < designs.size(); ++q) {
    std::printf("\n%s, grid epsilon %g (%.2f per item): mean position (1..6)\n", designs[q].mechanism.c_str(),
                designs[q].epsilon, designs[q].epsilon / static_cast<double>(items.size()));
    PrintHeader("item");
    for (std::size_t i = 0; i < items.size(); ++i) PrintCell(items[i], cells[q].mean[i]);
    if (cells[q].levels[0][0].replicates == 0 || cells[q].levels[0][0].estimated == 0) continue;
    // The level frequencies: the worst coverage over the item's levels, and each level whose coverage is flagged.
    std::printf("  level frequencies' coverage (population; consistent; respondents), worst level of each item:\n");
    for (std::size_t i = 0; i < items.size(); ++i) {
      std::size_t worst = 0;
      for (std::size_t l = 1; l < kLevels; ++l) {
        if (cells[q].levels[i][l].covered < cells[q].levels[i][worst].covered) worst = l;
      }
      const Cell& cell = cells[q].levels[i][worst];
      std::printf("    %-4s level %zu (share %.3f): %s %s %s; SE form %.4f, SD emp %.4f\n", items[i].c_str(), worst + 1,
                  cell.truth, Coverage(cell.covered, cell.replicates).c_str(),
                  Coverage(cell.covered_consistent, cell.replicates).c_str(),
                  Coverage(cell.covered_respondents, cell.replicates).c_str(), cell.se / cell.estimated, cell.Sd());
    }
    // What a level's share costs beside the mean (the advisor compares the mechanisms on the mean alone).
    double low = INFINITY, high = 0.0;
    for (const auto& item_levels : cells[q].levels) {
      for (const Cell& cell : item_levels) low = std::min(low, cell.se / cell.estimated), high = std::max(high, cell.se / cell.estimated);
    }
    // Beside the advisor's planning figure (answers spread evenly; the least precise level's).
    const auto kind = ParseGridMechanismKind(designs[q].mechanism);
    std::printf("  a level's share: reported SE %.4f to %.4f over the items' levels; advisor's planning SE %.4f\n", low,
                high, kind ? PlanningShareStdError(*kind, kLevels, designs[q].epsilon / static_cast<double>(items.size()),
                                                   answering) : NAN);
  }
  // What the advisor says for this grid at each epsilon, for the respondents who answered it.
  std::vector<double> epsilons;
  for (const auto& design : designs) {
    if (std::find(epsilons.begin(), epsilons.end(), design.epsilon) != epsilons.end()) continue;
    epsilons.push_back(design.epsilon);
    const auto advice = GridAdviceToJson(static_cast<int>(items.size()), kLevels, design.epsilon,
                                         std::llround(answering), GridMechanismKind::kOrdinal);
    std::printf("\nadvice at grid epsilon %g: recommended %s, for the distribution %s: %s\n", design.epsilon,
                advice["recommended"].get<std::string>().c_str(),
                advice["recommended_for_distribution"].get<std::string>().c_str(), advice["note"].get<std::string>().c_str());
  }
}

// ---------------------------------------------------------------- choose all that apply
void MultipleStudy(const Table& table, const std::vector<std::string>& options, int replicates, std::size_t respondents,
                   std::uint64_t seed) {
  constexpr int kYes = 1, kNo = 2;  // epi's coding (bench/fetch-kinds-data.sh)
  const auto columns = ColumnIndices(table, options);
  const std::size_t k = options.size();
  const auto designs = Designs("multiple", {"symmetric_bits", "optimized_bits", "padding_sampling"});
  std::vector<std::optional<std::vector<int>>> answers;  // the options answered yes, nullopt: skipped
  std::vector<double> chosen(k, 0.0), sizes(k + 1, 0.0);
  int complete = 0;
  for (const auto& row : table.rows) {
    std::vector<int> set;
    bool skipped = false;
    for (std::size_t j = 0; j < k; ++j) {
      const auto& value = row[columns[j]];
      if (!value) skipped = true;
      else if (*value == kYes) set.push_back(static_cast<int>(j));
      else if (*value != kNo) Fail("yes/no answers must be 1 or 2");
    }
    if (skipped) {
      answers.emplace_back();
      continue;
    }
    ++complete;
    for (int j : set) chosen[static_cast<std::size_t>(j)] += 1.0;
    sizes[set.size()] += 1.0;
    answers.emplace_back(set);
  }
  Study study = MakeStudy(designs, "multiple", "Which of these apply to you?", {{"options", options}}, answers);
  struct MultipleCells {
    std::vector<Cell> shares;        // per option
    Cell mean;                       // the number chosen's mean
    std::vector<Cell> distribution;  // P(number chosen = t), t = 0..k
  };
  std::vector<MultipleCells> cells(designs.size());
  double population_mean = 0.0;
  for (std::size_t t = 0; t <= k; ++t) population_mean += static_cast<double>(t) * sizes[t] / complete;
  for (auto& design_cells : cells) {
    design_cells.shares.resize(k);
    for (std::size_t j = 0; j < k; ++j) design_cells.shares[j].truth = chosen[j] / complete;
    design_cells.mean.truth = population_mean;
    design_cells.distribution.resize(k + 1);
    for (std::size_t t = 0; t <= k; ++t) design_cells.distribution[t].truth = sizes[t] / complete;
  }
  std::vector<std::map<std::string, int>> notes(designs.size());

  study.read = [&](const json& population_results, const json& respondents_results, const std::vector<int>& draws) {
    std::vector<double> own(k, 0.0), own_sizes(k + 1, 0.0);
    double answered = 0.0;
    for (std::size_t row = 0; row < draws.size(); ++row) {
      if (!answers[row] || draws[row] == 0) continue;
      answered += draws[row];
      for (int j : *answers[row]) own[static_cast<std::size_t>(j)] += draws[row];
      own_sizes[answers[row]->size()] += draws[row];
    }
    double own_mean = 0.0;
    for (std::size_t t = 0; t <= k; ++t) own_mean += static_cast<double>(t) * own_sizes[t] / answered;
    for (std::size_t q = 0; q < designs.size(); ++q) {
      const json& result = QuestionResult(population_results, q);
      const json& respondents = QuestionResult(respondents_results, q);
      for (std::size_t j = 0; j < k; ++j) {
        const json& option = result["options"][j];
        Cell& cell = cells[q].shares[j];
        cell.Add(option["share"], option["std_error"], option["ci_low"], option["ci_high"]);
        cell.AddConsistent(option["consistent_ci_low"], option["consistent_ci_high"]);
        cell.AddRespondents(own[j] / answered, respondents["options"][j]["ci_low"], respondents["options"][j]["ci_high"]);
      }
      const json& number = result["number_chosen"];
      cells[q].mean.Add(number["mean"], number["std_error"], number["ci_low"], number["ci_high"]);
      cells[q].mean.AddRespondents(own_mean, respondents["number_chosen"]["ci_low"],
                                   respondents["number_chosen"]["ci_high"]);
      if (number["note"].is_string() && !number["note"].get<std::string>().empty()) {
        ++notes[q][number["note"].get<std::string>()];
      }
      for (std::size_t t = 0; t <= k; ++t) {
        Cell& cell = cells[q].distribution[t];
        if (!number["distribution"].is_array()) {
          cell.Add(json(), json(), json(), json());
          continue;
        }
        const json& row = number["distribution"][t];
        cell.Add(row["share"], row["std_error"], row["ci_low"], row["ci_high"]);
      }
    }
  };
  RunReplicates(study, replicates, respondents, seed);

  std::printf("## Choose all that apply on epi: options (\"yes\" answers)");
  for (const auto& option : options) std::printf(" %s", option.c_str());
  std::printf("; %zu rows, %d complete (the rest skip the question); %d replicates of %zu respondents\n",
              table.rows.size(), complete, replicates, respondents > 0 ? respondents : table.rows.size());
  std::printf("Population: number chosen");
  for (std::size_t t = 0; t <= k; ++t) std::printf(" %zu:%.3f", t, sizes[t] / complete);
  std::printf(", mean %.3f\n", population_mean);
  for (std::size_t q = 0; q < designs.size(); ++q) {
    std::printf("\n%s, epsilon %g for the whole set (at most %zu options chosen)\n", designs[q].mechanism.c_str(),
                designs[q].epsilon, k);
    PrintHeader("option");
    for (std::size_t j = 0; j < k; ++j) PrintCell(options[j], cells[q].shares[j]);
    PrintCell("# chosen", cells[q].mean, false);
    if (cells[q].distribution[0].estimated == 0) {
      std::printf("  number chosen's distribution: withheld in every replicate");
    } else {
      std::printf("  number chosen's distribution (population intervals; the respondents' are these):\n");
      for (std::size_t t = 0; t <= k; ++t) PrintCell("  = " + std::to_string(t), cells[q].distribution[t], false, false);
    }
    for (const auto& [note, count] : notes[q]) std::printf("  note (%d replicates): %.160s\n", count, note.c_str());
    std::printf("\n");
  }
}

std::vector<std::string> Names(const char* list) { return Split(list, ','); }

}  // namespace

int main(int argc, char** argv) {
  std::string grid_path, multiple_path;
  std::vector<std::string> items = Names("A1,A2,A3,A4,A5");
  std::vector<std::string> options = Names("V26,V31,V33,V35,V43,V45,V55,V57");
  int replicates = 1000;
  std::size_t respondents = 0;  // as many as the table has rows
  std::uint64_t seed = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) Fail(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--grid") grid_path = value();
    else if (arg == "--multiple") multiple_path = value();
    else if (arg == "--replicates") replicates = std::atoi(value().c_str());
    else if (arg == "--respondents") respondents = std::strtoull(value().c_str(), nullptr, 10);
    else if (arg == "--seed") seed = std::strtoull(value().c_str(), nullptr, 10);
    else if (arg == "--quick") replicates = 100;
    else if (arg == "--grid-items") items = Names(value().c_str());
    else if (arg == "--options") options = Names(value().c_str());
    else Fail("unknown argument " + arg);
  }
  if (grid_path.empty() && multiple_path.empty()) {
    Fail("usage: kinds_real_data --grid build/data/bfi.csv --multiple build/data/epi.csv [--replicates R] [--quick]");
  }
  if (replicates < 2) Fail("--replicates must be at least 2");
  std::printf("Coverage is of 95%% intervals; '<' ('>'): more than 3 Monte-Carlo SE (%.3f at %d replicates) below\n"
              "(above) 0.95.\n"
              "SE form: the reported standard error's mean; SD emp: the estimates' SD over the replicates (its own\n"
              "relative error about %.0f%%). cov cons: the consistent interval; cov resp: under \"interval\": "
              "\"respondents\", of these respondents' value.\n\n",
              3.0 * std::sqrt(0.95 * 0.05 / replicates), replicates, 100.0 / std::sqrt(2.0 * (replicates - 1)));
  if (!grid_path.empty()) GridStudy(ReadTable(grid_path), items, replicates, respondents, seed);
  if (!multiple_path.empty()) {
    if (!grid_path.empty()) std::printf("\n");
    MultipleStudy(ReadTable(multiple_path), options, replicates, respondents, seed + 1);
  }
  return 0;
}
