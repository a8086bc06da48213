import EnergyLabCore
import Surveys

/// A respondent's SUS score: the value the respondent columns of `survey
/// sus` read.
package typealias SUSRespondent = (id: String, score: Double?, itemsUsed: Int, missing: [String])

extension SurveyCommands {
  /// The columns of `survey sus`'s summary, declared once: the printed
  /// record and the stored rows (subject: the survey) are both made from
  /// this list. Scores are SUS points (0 to 100).
  package static let susColumns: [ResultColumn<SUSResult>] = [
    .integer("n") { $0.summary.n },
    .number("mean", .points, digits: 1) { $0.summary.mean },
    .number("sd", .points, digits: 1) { $0.summary.sd },
    .number("ci95_lower", .points, digits: 1) { $0.summary.lower },
    .number("ci95_upper", .points, digits: 1) { $0.summary.upper },
    .text("adjective") { .string(SUS.adjective($0.summary.mean)) },
    .text("grade") { .string(SUS.grade($0.summary.mean)) },
    .integer("skipped") { $0.skipped },
    .text("items") { .string($0.items.map(\.id).joined(separator: ",")) },
    .text("coding") { .string($0.coding) },
    .text("missing_rule") { _ in .string("a respondent without all ten items gets no score and is left out")
    },
  ]

  /// The columns of a respondent of `survey sus`, declared once: the
  /// printed row and the stored rows (subject: `SURVEY respondent ID`).
  package static let susRespondentColumns: [ResultColumn<SUSRespondent>] = [
    .text("respondent") { .string($0.id) },
    .number("score", .points, digits: 1) { $0.score },
    .integer("items_used") { $0.itemsUsed },
    .text("note") { r in
      .string(
        r.score == nil
          ? "\(10 - r.itemsUsed) of 10 items missing (\(r.missing.joined(separator: ","))): no score" : "")
    },
  ]

  /// The columns of a task of `survey asq`, declared once: the printed row
  /// and the stored rows (subject: `SURVEY TASK`). Scores are ASQ points
  /// (1 to 7).
  package static let asqColumns: [ResultColumn<ASQTask>] = [
    .text("task") { .string($0.task) },
    .integer("n") { $0.summary.n },
    .number("mean", .points, digits: 2) { $0.summary.mean },
    .number("sd", .points, digits: 2) { $0.summary.sd },
    .number("ci95_lower", .points, digits: 2) { $0.summary.lower },
    .number("ci95_upper", .points, digits: 2) { $0.summary.upper },
    .integer("skipped") { $0.skipped },
    .text("coding") { .string($0.coding) },
  ]

  /// The test of association of `survey crosstab`, declared once: the
  /// printed record (after the questions and the table) and the stored
  /// rows (subject: `SURVEY ROWS x COLS`).
  package static let crosstabColumns: [ResultColumn<SurveyStatistics.Crosstab>] = [
    .number("chi2", .none, digits: 4) { $0.chiSquare },
    .integer("dof") { $0.degreesOfFreedom },
    .number("p_value", .none, digits: 4) { $0.pValue },
    .number("cramers_v", .none, digits: 4) { $0.cramersV },
    .integer("sparse_cells") { $0.sparseCells },
  ]
}
