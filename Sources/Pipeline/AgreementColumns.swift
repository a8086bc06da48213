import EnergyLabCore
import Evaluation
import Store

/// The statistics of an agreement, declared once: the printed record and
/// the stored error-summary rows are both made from this list, so a
/// statistic has one name, one unit and one number of digits wherever it
/// appears.
///
/// Not a `ResultColumn`, for three reasons a `ResultColumn` cannot carry:
/// - the unit of most statistics (`bias`, `rmse`, the limits) is the
///   compared values' and is known only at run time (kcal/min, W, L/min,
///   kcal, or any `--measured-unit`), whose printed suffix (`l_per_min`)
///   is not one of `ResultUnit`'s; a `ResultColumn`'s unit is fixed where
///   it is declared;
/// - words are stored (the limits' form and why, the intervals' methods,
///   why percentage errors are unknown, in `error_summaries.text`), where a
///   `ResultColumn` prints words and never stores them;
/// - the statistics a summary table shows are stored even when unknown
///   (`mape` as NULL with its reason beside it), where a `ResultColumn`'s
///   unknown value is no row.
/// `ModeConfusion.scoreColumns`, whose units are all fixed (counts and
/// fractions), is a list of `ResultColumn`s.
package struct AgreementColumn: Sendable, Hashable {
  /// What a statistic is measured in.
  package enum Kind: Sendable, Hashable {
    /// The unit of the compared values (kcal/min, W).
    case values
    /// Percent.
    case percent
    /// A ratio a / b, no unit.
    case ratio
    /// A count of pairs or participants.
    case count
    /// A fraction from 0 to 1.
    case fraction
    /// A slope, correlation or p-value, no unit.
    case plain
    /// Words: a form, a method, a reason.
    case text
  }

  /// The stored name, without a unit.
  package var name: String
  package var kind: Kind
  package var digits: Int
  package var number: Double?
  package var text: String?

  init(_ name: String, _ kind: Kind, _ number: Double?, digits: Int = 4) {
    self.name = name
    self.kind = kind
    self.digits = digits
    self.number = number.flatMap { $0.isFinite ? $0 : nil }
  }

  init(_ name: String, text: String?) {
    self.name = name
    kind = .text
    digits = 0
    self.text = text
  }

  /// The printed key: the name and the unit's suffix (`bias_kcal_per_min`,
  /// `mape_pct`).
  func key(unitSuffix: String?) -> String {
    let suffix = kind == .values ? unitSuffix : fixedUnit?.suffix
    return suffix.map { "\(name)_\($0)" } ?? name
  }

  /// The unit of every kind but `values` (whose unit is the data's), from
  /// the one table of units and suffixes (`ResultUnit`).
  var fixedUnit: ResultUnit? {
    switch kind {
    case .values: return nil
    case .percent: return .percent
    case .ratio: return .ratio
    case .count: return .count
    case .fraction: return .fraction
    case .plain, .text: return ResultUnit.none
    }
  }

  /// The stored unit.
  func storedUnit(_ unit: String) -> String { fixedUnit?.text ?? unit }

  var value: ResultValue {
    switch kind {
    case .text: return text.map { .string($0) } ?? .null
    case .count: return number.map { .integer(Int($0)) } ?? .null
    default: return .number(number, digits)
    }
  }

  /// Every statistic of `agreement`, in printed order.
  package static func columns(of agreement: PairedAgreement) -> [AgreementColumn] {
    let s = agreement.statistics
    let l = agreement.limits
    let c = l?.constant
    let ratio = l?.ratio
    let pct = l?.percentage
    let regression = l?.regression
    let indices = agreement.indices
    var out: [AgreementColumn] = [
      .init("n", .count, Double(s.count)),
      .init("participants", .count, (l?.participants).map(Double.init)),
      .init("nesting", text: l?.nesting.rawValue),
      .init("limits_form", text: l?.form.rawValue ?? "untested"),
      .init("limits_form_reason", text: l?.reason ?? "too few pairs to test a trend"),
      .init("mean_predicted", .values, s.meanPredicted), .init("mean_reference", .values, s.meanReference),
      .init("bias", .values, s.bias),
      .init("bias_ci95_lower", .values, c?.biasInterval.lower),
      .init("bias_ci95_upper", .values, c?.biasInterval.upper),
      .init("bias_ci_method", text: c?.biasInterval.method),
      .init("sd_diff", .values, c?.standardDeviation ?? s.sdDifference),
      .init("sd_within", .values, c?.components.map { $0.withinVariance.squareRoot() }),
      .init("sd_between", .values, c?.components.map { $0.betweenVariance.squareRoot() }),
      .init("loa_lower", .values, c?.lower ?? s.limitsOfAgreementLower),
      .init("loa_upper", .values, c?.upper ?? s.limitsOfAgreementUpper),
      .init("loa_lower_ci95_lower", .values, c?.lowerInterval.lower),
      .init("loa_lower_ci95_upper", .values, c?.lowerInterval.upper),
      .init("loa_upper_ci95_lower", .values, c?.upperInterval.lower),
      .init("loa_upper_ci95_upper", .values, c?.upperInterval.upper),
      .init("loa_ci_method", text: c?.upperInterval.method),
      .init("ratio_bias", .ratio, ratio?.bias), .init("ratio_loa_lower", .ratio, ratio?.limits.lower),
      .init("ratio_loa_upper", .ratio, ratio?.limits.upper),
      .init("ratio_loa_lower_ci95_lower", .ratio, ratio?.lowerInterval.lower),
      .init("ratio_loa_lower_ci95_upper", .ratio, ratio?.lowerInterval.upper),
      .init("ratio_loa_upper_ci95_lower", .ratio, ratio?.upperInterval.lower),
      .init("ratio_loa_upper_ci95_upper", .ratio, ratio?.upperInterval.upper),
      .init("pct_bias", .percent, pct?.bias, digits: 2),
      .init("pct_loa_lower", .percent, pct?.lower, digits: 2),
      .init("pct_loa_upper", .percent, pct?.upper, digits: 2),
      .init("pct_loa_lower_ci95_lower", .percent, pct?.lowerInterval.lower, digits: 2),
      .init("pct_loa_lower_ci95_upper", .percent, pct?.lowerInterval.upper, digits: 2),
      .init("pct_loa_upper_ci95_lower", .percent, pct?.upperInterval.lower, digits: 2),
      .init("pct_loa_upper_ci95_upper", .percent, pct?.upperInterval.upper, digits: 2),
      .init("reg_bias_intercept", .values, regression?.b0), .init("reg_bias_slope", .plain, regression?.b1),
      .init("reg_abs_residual_intercept", .values, regression?.c0),
      .init("reg_abs_residual_slope", .plain, regression?.c1),
    ]
    // Every column is always there (empty where it does not apply), so
    // the rows of a table share their columns in one order.
    let intervals = regression?.intervals ?? []
    for (k, at) in ["min", "mid", "max"].enumerated() {
      let interval = k < intervals.count ? intervals[k] : nil
      let limits = interval.flatMap { i in regression?.limits(atMean: i.mean) }
      out += [
        .init("reg_loa_at_\(at)_mean", .values, interval?.mean),
        .init("reg_loa_lower_at_\(at)", .values, limits?.lower),
        .init("reg_loa_lower_at_\(at)_ci95_lower", .values, interval?.lower.lower),
        .init("reg_loa_lower_at_\(at)_ci95_upper", .values, interval?.lower.upper),
        .init("reg_loa_upper_at_\(at)", .values, limits?.upper),
        .init("reg_loa_upper_at_\(at)_ci95_lower", .values, interval?.upper.lower),
        .init("reg_loa_upper_at_\(at)_ci95_upper", .values, interval?.upper.upper),
      ]
    }
    out.append(.init("reg_loa_ci_method", text: intervals.first?.lower.method))
    for third in ["lower", "middle", "upper"] {
      let share = l?.coverage.first { $0.third == third }?.share
      out.append(.init("coverage_\(third)_third", .fraction, share, digits: 3))
    }
    out += [
      .init("trend_slope", .plain, l?.differenceTrend.slope),
      .init("trend_p", .plain, l?.differenceTrend.pValue),
      .init("spread_slope", .plain, l?.spreadTrend.slope), .init("spread_p", .plain, l?.spreadTrend.pValue),
      .init("mae", .values, s.meanAbsoluteError), .init("rmse", .values, s.rootMeanSquareError),
      .init("max_abs_error", .values, s.maximumAbsoluteError),
      .init("mape", .percent, s.meanAbsolutePercentageError, digits: 2),
      .init(
        "within_\(Fixed.shortest(100 * s.relativeTolerance))pct_share", .fraction, s.withinToleranceShare),
      .init("percent_errors_unknown", text: s.percentErrorUnknownReason),
      .init("pearson_r", .plain, s.pearsonR),
      .init("ccc", .plain, indices?.concordance?.value ?? s.concordanceCorrelation),
      .init("ccc_ci95_lower", .plain, indices?.concordance?.interval.lower),
      .init("ccc_ci95_upper", .plain, indices?.concordance?.interval.upper),
      .init("icc_a1", .plain, indices?.iccAbsolute.value),
      .init("icc_a1_ci95_lower", .plain, indices?.iccAbsolute.interval.lower),
      .init("icc_a1_ci95_upper", .plain, indices?.iccAbsolute.interval.upper),
      .init("icc_c1", .plain, indices?.iccConsistency.value),
      .init("icc_c1_ci95_lower", .plain, indices?.iccConsistency.interval.lower),
      .init("icc_c1_ci95_upper", .plain, indices?.iccConsistency.interval.upper),
      .init("deming_slope", .plain, indices?.demingSlope?.value),
      .init("deming_slope_ci95_lower", .plain, indices?.demingSlope?.interval.lower),
      .init("deming_slope_ci95_upper", .plain, indices?.demingSlope?.interval.upper),
      .init("deming_intercept", .values, indices?.demingIntercept?.value),
      .init("deming_intercept_ci95_lower", .values, indices?.demingIntercept?.interval.lower),
      .init("deming_intercept_ci95_upper", .values, indices?.demingIntercept?.interval.upper),
      .init("deming_ci_method", text: indices?.demingSlope?.interval.method),
    ]
    if let e = indices?.equivalence {
      out += [
        .init("equivalence_margin", .values, e.margin), .init("equivalence_p_lower", .plain, e.pLower),
        .init("equivalence_p_upper", .plain, e.pUpper), .init("equivalence_p", .plain, e.pValue),
        .init("equivalence_bias_ci90_lower", .values, e.interval.lower),
        .init("equivalence_bias_ci90_upper", .values, e.interval.upper),
        .init("equivalent", text: e.isEquivalent ? "yes" : "no"),
      ]
    }
    return out
  }

  /// The printed record: each column under its key with its unit's suffix
  /// (`unitSuffix` for values, such as `kcal_per_min`).
  /// `only` keeps the named columns, in the declaration's order.
  package static func record(_ agreement: PairedAgreement, unitSuffix: String?, only: Set<String>? = nil)
    -> ResultRecord
  {
    var row = ResultRecord()
    for column in columns(of: agreement) where only?.contains(column.name) ?? true {
      row[column.key(unitSuffix: unitSuffix)] = column.value
    }
    return row
  }

  /// The error statistics a summary table shows.
  package static let errorNames: Set<String> = [
    "n", "mean_predicted", "mean_reference", "bias", "sd_diff", "mae", "rmse", "mape", "max_abs_error",
    "pearson_r", "ccc", "within_20pct_share",
  ]

  /// The limits of agreement a summary table shows: the form and why, the
  /// constant limits with their intervals, the ratio or regression limits,
  /// the coverage by thirds and the tests.
  package static let limitsNames: Set<String> = [
    "participants", "nesting", "limits_form", "limits_form_reason", "bias_ci95_lower", "bias_ci95_upper",
    "loa_lower", "loa_upper", "loa_lower_ci95_lower", "loa_lower_ci95_upper", "loa_upper_ci95_lower",
    "loa_upper_ci95_upper", "ratio_bias", "ratio_loa_lower", "ratio_loa_upper", "reg_bias_intercept",
    "reg_bias_slope", "reg_abs_residual_intercept", "reg_abs_residual_slope", "coverage_lower_third",
    "coverage_middle_third", "coverage_upper_third", "trend_slope", "trend_p", "spread_slope", "spread_p",
  ]

  /// The stored rows: each column under its name, the unit in its own
  /// column (`unit` for values, such as `kcal/min`), words in `text`.
  /// Columns that do not apply (no ratio limits where values cross zero)
  /// are not stored; unknown values that always apply (`mape`) are, as
  /// NULL.
  package static func summaries(_ agreement: PairedAgreement, model: String, reference: String, unit: String)
    -> [ErrorSummaryRow]
  {
    summaries(columns(of: agreement), model: model, reference: reference, unit: unit)
  }

  /// The stored rows of `columns` (`columns(of:)` with a command's own
  /// statistics added), as `summaries(_:model:reference:unit:)` stores them.
  package static func summaries(_ columns: [AgreementColumn], model: String, reference: String, unit: String)
    -> [ErrorSummaryRow]
  {
    let always: Set<String> = errorNames
    return columns.filter { $0.number != nil || $0.text != nil || always.contains($0.name) }
      .map {
        ErrorSummaryRow(
          model: model, reference: reference, statistic: $0.name, value: $0.number, unit: $0.storedUnit(unit),
          text: $0.text)
      }
  }
}
