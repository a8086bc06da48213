import Foundation
import TestSupport
import Testing

struct ModelsCommandLineTests {
  /// `models list --format json` is an array of objects with `id`.
  @Test func listAsJSON() throws {
    let out = try energylab(["models", "list", "--format", "json"], in: packageRoot)
    let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    let ids = rows.compactMap { $0["id"] as? String }
    #expect(ids.contains("acsm-walking"))
    #expect(ids.contains("keytel-2005"))
    #expect(ids.count == rows.count)
  }

  /// Units on the command line: 154lb = 69.853 kg, 3mph = 80.4672 m/min.
  /// ACSM walking: 0.1 x 80.4672 + 3.5 = 11.54672 mL/kg/min; x 69.853 x 5/1000
  /// = 4.0329 kcal/min; over 1 mi at 3 mph (20 min) 80.66 kcal.
  @Test func evalWithUnits() throws {
    let out = try energylab(
      [
        "models", "eval", "acsm-walking", "--speed", "3mph", "--grade", "0%", "--mass", "154lb", "--distance",
        "1mi", "--format", "json",
      ],
      in: packageRoot)
    #expect(out.status == 0, "\(out.stderr)")
    let object = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
    expectClose(object["vo2_ml_kg_min"] as? Double, 11.54672, tolerance: 1e-9, "vo2_ml_kg_min")
    let perMinute = 11.54672 * 154 * 0.45359237 * 5 / 1000
    expectClose(object["kcal_per_min"] as? Double, perMinute, tolerance: 1e-9, "kcal_per_min")
    expectClose((object["energy_kcal"] as? Double ?? 0), perMinute * 20, tolerance: 1e-6)
  }

  /// A model without VO2 prints null; the MET table is found by activity code.
  @Test func metByActivityHasVO2AndHeartRateModelHasNone() throws {
    let met = try energylab(
      [
        "models", "eval", "met", "--activity", "17190", "--mass", "70kg", "--minutes", "30", "--format",
        "json",
      ], in: packageRoot)
    let metObject = try #require(JSONSerialization.jsonObject(with: Data(met.stdout.utf8)) as? [String: Any])
    expectClose(metObject["energy_kcal"] as? Double, 122.5, tolerance: 1e-9, "energy_kcal")
    let hr = try energylab(
      [
        "models", "eval", "keytel-2005", "--heart-rate", "140bpm", "--mass", "65kg", "--age", "30", "--sex",
        "female", "--minutes", "30", "--format", "json",
      ],
      in: packageRoot)
    let hrObject = try #require(JSONSerialization.jsonObject(with: Data(hr.stdout.utf8)) as? [String: Any])
    #expect(hrObject["vo2_ml_kg_min"] is NSNull)
    expectClose(hrObject["energy_kcal"] as? Double, 259.68, tolerance: 0.01, "energy_kcal")
  }

  @Test func missingInputIsAUsageError() throws {
    let out = try energylab(["models", "eval", "keytel-2005", "--mass", "65kg"], in: packageRoot)
    #expect(out.status == 64)
    #expect(out.stderr == "energylab: model keytel-2005 needs --heart-rate\n")
  }
}

/// `energy --by-mode` on a walk, bus ride and walk, 65 kg (the epoch model
/// calls the ride a vehicle; the speed bands, a bus). By hand:
/// walking 1.3 m/s = 78 m/min: ACSM 0.1 x 78 + 3.5 = 11.3 mL/kg/min,
/// x 65 x 5 / 1000 = 3.6725 kcal/min, x 15 min = 55.0875 kcal; the ride at
/// VO2rest 3.5: 1.1375 kcal/min x 10 min = 11.375 kcal; total 66.4625 kcal.
struct EnergyByModeTests {
  @Test func walkBusWalk() throws {
    let folder = try scratchFolder()
    let synth = try energylab(
      [
        "track", "synth", "-o", "j.gpx", "--leg", "1.3mps,0,10min", "--leg", "10mps,0,10min", "--leg",
        "1.3mps,0,5min",
      ],
      in: folder)
    #expect(synth.status == 0, "\(synth.stderr)")
    let out = try energylab(
      ["energy", "j.gpx", "--by-mode", "--mass", "65kg", "--format", "json"], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    #expect(rows.compactMap { $0["mode"] as? String } == ["walk", "vehicle", "walk"])
    #expect(
      rows.compactMap { $0["model"] as? String } == ["acsm-walking", "resting", "acsm-walking", "by mode"])
    let total = try #require(rows.last)
    // Coordinates are written to 1e-8 degrees, so speeds are good to about 1e-3 m/s.
    expectClose(total["energy_kcal"] as? Double, 66.4625, tolerance: 0.05, "energy_kcal")
    expectClose((rows[1]["energy_kcal"] as? Double ?? 0), 11.375, tolerance: 1e-6)
  }

  @Test func perFixRowsSumToTheTotal() throws {
    let folder = try scratchFolder()
    _ = try energylab(
      ["track", "synth", "-o", "w.gpx", "--speed", "1.3mps", "--duration", "2min"], in: folder)
    let out = try energylab(
      ["energy", "w.gpx", "--per-fix", "--mass", "65kg", "--format", "json"], in: folder)
    let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    #expect(rows.count == 120)
    let sum = rows.reduce(0.0) { $0 + ($1["energy_kcal"] as? Double ?? 0) }
    // 3.6725 kcal/min x 2 min.
    expectClose(sum, 7.345, tolerance: 0.01)
    expectClose((rows.last?["cumulative_kcal"] as? Double ?? 0), sum, tolerance: 1e-9)
  }
}

/// GPS noise makes the kinetic model count phantom accelerations: a steady
/// 1.3 m/s walk has, by construction, only the start-up energy
/// 1/2 x 70 x 1.3^2 = 59.15 J = 0.0141 kcal. Smoothing speeds must bring a
/// noisy copy much closer to that than the raw fixes do.
struct KineticSmoothingTests {
  @Test func smoothingTamesNoise() throws {
    let folder = try scratchFolder()
    _ = try energylab(
      [
        "track", "synth", "-o", "n.gpx", "--speed", "1.3mps", "--duration", "5min", "--noise", "1", "--seed",
        "7",
      ], in: folder)
    func kcal(_ extra: [String]) throws -> Double {
      let out = try energylab(
        ["energy", "n.gpx", "--model", "kinetic-hay", "--mass", "70kg", "--format", "json"] + extra,
        in: folder)
      let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
      return try #require(rows.first?["energy_kcal"] as? Double)
    }
    let raw = try kcal([])
    let smoothed = try kcal(["--speed-smoothing", "15"])
    #expect(raw > 10 * smoothed)
    #expect(smoothed > 0.0141 * 0.5)
  }
}

struct EvaluationCommandLineTests {
  /// `stats agreement` on Bland and Altman's (Lancet 1986) peak-flow data:
  /// mean difference -2.1 l/min, SD 38.8 (published); limits with 1.96 SD:
  /// -2.1176 -/+ 1.96 x 38.7651 = -78.10 and 73.86.
  @Test func statsAgreementOnPeakFlow() throws {
    let folder = try scratchFolder()
    let wright = [494, 395, 516, 434, 476, 557, 413, 442, 650, 433, 417, 656, 267, 478, 178, 423, 427]
    let mini = [512, 430, 520, 428, 500, 600, 364, 380, 658, 445, 432, 626, 260, 477, 259, 350, 451]
    var csv = "subject,wright,mini\n"
    for (i, (a, b)) in zip(wright, mini).enumerated() { csv += "\(i + 1),\(a),\(b)\n" }
    csv += "18,,500\n"
    try csv.write(toFile: "\(folder)/pefr.csv", atomically: true, encoding: .utf8)
    let out = try energylab(
      [
        "stats", "agreement", "pefr.csv", "--a", "wright", "--b", "mini", "--unit", "l_per_min", "--charts",
        "charts", "--format", "json",
      ], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    let o = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
    for key in [
      "n", "bias_l_per_min", "sd_diff_l_per_min", "loa_lower_l_per_min", "loa_upper_l_per_min",
      "mae_l_per_min",
      "rmse_l_per_min", "mape_pct", "pearson_r", "ccc", "within_20pct_share",
    ] {
      #expect(o[key] != nil, "missing \(key)")
    }
    #expect(o["n"] as? Int == 17)
    #expect(o["dropped_pairs"] as? Int == 1)
    #expect(out.stderr.contains("1 rows with a missing wright or mini"), "\(out.stderr)")
    expectClose(o["bias_l_per_min"] as? Double, -2.1, tolerance: 0.05, "bias_l_per_min")
    expectClose(o["sd_diff_l_per_min"] as? Double, 38.8, tolerance: 0.05, "sd_diff_l_per_min")
    expectClose(o["loa_lower_l_per_min"] as? Double, -78.10, tolerance: 0.01, "loa_lower_l_per_min")
    expectClose(o["loa_upper_l_per_min"] as? Double, 73.86, tolerance: 0.01, "loa_upper_l_per_min")
    // No proportional bias: scipy.stats.linregress of the differences on
    // the means gives slope 0.02869, p = 0.7495.
    expectClose(o["trend_slope"] as? Double, 0.0287, tolerance: 1e-4, "trend_slope")
    expectClose(o["trend_p"] as? Double, 0.7495, tolerance: 1e-4, "trend_p")
    #expect(o["limits_form"] as? String == "absolute")
    // Exact intervals of the limits (scipy.stats.nct,
    // scripts/oracles/limits_forms.py).
    expectClose(
      o["loa_lower_ci95_lower_l_per_min"] as? Double, -124.1628, tolerance: 1e-3, "lower limit interval")
    expectClose(
      o["loa_upper_ci95_upper_l_per_min"] as? Double, 119.9275, tolerance: 1e-3, "upper limit interval")
    #expect(o["nesting"] as? String == "independent")
    #expect(out.stderr.contains("energylab: wrote charts/pefr-wright-mini-bland-altman.png"), "\(out.stderr)")
    #expect(!out.stderr.contains("bland-altman-percent"))
    let script = try String(
      contentsOfFile: "\(folder)/charts/pefr-wright-mini-bland-altman.gp", encoding: .utf8)
    #expect(script.contains("set xlabel 'mean of wright and mini (l/min)'"))
    #expect(script.contains("set ylabel 'wright minus mini (l/min)'"))
    let bad = try energylab(
      ["stats", "agreement", "pefr.csv", "--a", "wright", "--b", "mini", "--unit", "l/min"], in: folder)
    #expect(bad.status == 64)
  }

  /// The blocks of a chart's data file, by series title: (x, y) rows.
  static func chartSeries(_ data: String) -> [String: [(Double, Double)]] {
    var out: [String: [(Double, Double)]] = [:]
    for block in data.components(separatedBy: "\n\n\n") {
      let lines = block.split(separator: "\n")
      guard let head = lines.first(where: { $0.hasPrefix("# series ") }),
        let colon = head.firstIndex(of: ":")
      else { continue }
      let title = head[head.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      out[title] = lines.filter { !$0.hasPrefix("#") }.compactMap { line in
        let f = line.split(separator: " ").compactMap { Double($0) }
        return f.count == 2 ? (f[0], f[1]) : nil
      }
    }
    return out
  }

  /// Where the differences trend with the mean, the Bland-Altman chart
  /// draws no constant line: with no limits (6 pairs, too few for
  /// regression-based limits, and the logarithms still trend) it draws
  /// the fitted trend and says that no limits apply; where ratio limits
  /// hold it draws the differences at the ratio limits, 2 A (r - 1) /
  /// (r + 1). Expected lines from scipy.stats.linregress 1.17.1 and numpy
  /// on the same pairs: trend -3.90622 + 0.225670 A (p 2.1e-6) over A = 9
  /// to 65.5; ratio limits exp(mean(L) -/+ 1.96 SD(L)), L = ln a - ln b,
  /// = 1.156663 and 1.252008 over A = 11.25 to 87.6.
  @Test func blandAltmanChartsDrawNoConstantLineOverATrend() throws {
    let folder = try scratchFolder()
    try "a,b\n8,10\n21,20\n33,30\n46,40\n58,50\n71,60\n".write(
      toFile: "\(folder)/none.csv", atomically: true, encoding: .utf8)
    let none = try energylab(
      ["stats", "agreement", "none.csv", "--a", "a", "--b", "b", "--charts", "charts", "--format", "json"],
      in: folder)
    #expect(none.status == 0, "\(none.stderr)")
    let noneRow = try #require(
      JSONSerialization.jsonObject(with: Data(none.stdout.utf8)) as? [String: Any], "\(none.stdout)")
    #expect(noneRow["limits_form"] as? String == "none")
    let script = try String(contentsOfFile: "\(folder)/charts/none-a-b-bland-altman.gp", encoding: .utf8)
    #expect(script.contains("no limits of agreement apply"), "\(script)")
    #expect(!script.contains("mean difference"), "\(script)")
    #expect(!script.contains("with lines ls 11"), "a constant line besides zero: \(script)")
    let data = Self.chartSeries(
      try String(contentsOfFile: "\(folder)/charts/none-a-b-bland-altman.dat", encoding: .utf8))
    let trend = try #require(
      data.first { $0.key.hasPrefix("trend of the differences") }?.value, "\(data.keys)")
    #expect(trend.count == 2)
    expectClose(trend.first?.0, 9, tolerance: 1e-9, "trend start mean")
    expectClose(trend.first?.1, -3.906224 + 0.2256704 * 9, tolerance: 1e-5, "trend start")
    expectClose(trend.last?.0, 65.5, tolerance: 1e-9, "trend end mean")
    expectClose(trend.last?.1, -3.906224 + 0.2256704 * 65.5, tolerance: 1e-5, "trend end")

    try "a,b\n12.5,10\n23.5,20\n36.4,30\n47.2,40\n60.8,50\n71.5,60\n84.9,70\n95.2,80\n".write(
      toFile: "\(folder)/pct.csv", atomically: true, encoding: .utf8)
    let pct = try energylab(
      ["stats", "agreement", "pct.csv", "--a", "a", "--b", "b", "--charts", "charts", "--format", "json"],
      in: folder)
    #expect(pct.status == 0, "\(pct.stderr)")
    let pctRow = try #require(
      JSONSerialization.jsonObject(with: Data(pct.stdout.utf8)) as? [String: Any], "\(pct.stdout)")
    #expect(pctRow["limits_form"] as? String == "ratio")
    let pctScript = try String(contentsOfFile: "\(folder)/charts/pct-a-b-bland-altman.gp", encoding: .utf8)
    #expect(!pctScript.contains("with lines ls 11"), "a constant line besides zero: \(pctScript)")
    #expect(!pctScript.contains("no limits of agreement"))
    let pctData = Self.chartSeries(
      try String(contentsOfFile: "\(folder)/charts/pct-a-b-bland-altman.dat", encoding: .utf8))
    func atRatio(_ mean: Double, _ r: Double) -> Double { 2 * mean * (r - 1) / (r + 1) }
    let lower = try #require(
      pctData.first { $0.key.hasPrefix("lower limit: ratio 1.157") }?.value, "\(pctData.keys)")
    expectClose(lower.first?.1, atRatio(11.25, 1.156663), tolerance: 1e-4, "lower limit at the smallest mean")
    expectClose(lower.last?.1, atRatio(87.6, 1.156663), tolerance: 1e-4, "lower limit at the largest mean")
    let upper = try #require(
      pctData.first { $0.key.hasPrefix("upper limit: ratio 1.252") }?.value, "\(pctData.keys)")
    expectClose(upper.first?.1, atRatio(11.25, 1.252008), tolerance: 1e-4, "upper limit at the smallest mean")
    expectClose(upper.last?.1, atRatio(87.6, 1.252008), tolerance: 1e-4, "upper limit at the largest mean")
    #expect(!pctData.keys.contains { $0.hasPrefix("trend of the differences") })
  }

  @Test func statsAgreementNamesTheBadCell() throws {
    let folder = try scratchFolder()
    try "a,b\n1,2\n3,\"4,5\"\n".write(toFile: "\(folder)/x.csv", atomically: true, encoding: .utf8)
    let out = try energylab(["stats", "agreement", "x.csv", "--a", "a", "--b", "b"], in: folder)
    #expect(out.status == 1)
    #expect(out.stderr.hasPrefix("energylab: x.csv:3:2: cannot read b \"4,5\" as a number"))
  }

  /// The bias of ACSM walking against the Stanford table is linear in speed,
  /// so its zero is exact: mean reference R over the grid equals
  /// VO2 x (mean kg) x (mean minutes) x 5/1000 at VO2 = 0.1 v + 3.5, i.e.
  /// v = (R / (81.6466 x 40 x 0.005) - 3.5) / 0.1 m/min, about 5.60 mph, far
  /// outside the walking range.
  @Test func sweepBreakEvenOfACSMAgainstStanford() throws {
    let out = try energylab(
      [
        "sweep", "--models", "acsm-walking", "--reference", "stanford-walking", "--vary", "speed", "--from",
        "2mph", "--to",
        "7mph", "--step", "0.25mph", "--assume", "grade=0", "--format", "json",
      ], in: packageRoot)
    #expect(out.status == 0, "\(out.stderr)")
    let o = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
    let breakEven = try #require((o["break_even"] as? [[String: Any]])?.first)
    let table = try String(
      contentsOfFile: "\(packageRoot)/Datasets/reference/stanford-walking.csv", encoding: .utf8)
    let cells = table.split(separator: "\n").filter { !$0.hasPrefix("#") }.dropFirst()
      .flatMap { $0.split(separator: ",").dropFirst().map { Double($0)! } }
    let meanReference = cells.reduce(0, +) / Double(cells.count)
    let metersPerMinute = (meanReference / (180 * 0.45359237 * 40 * 0.005) - 3.5) / 0.1
    let mph = metersPerMinute * 60 / 1609.344
    expectClose(breakEven["break_even_speed_mph"] as? Double, mph, tolerance: 1e-6, "break_even_speed_mph")
    #expect(breakEven["inside_valid_range"] as? Bool == false)
  }

  /// Two models over a 20-minute track in 60 s epochs: 20 pairs each.
  @Test func modelAgreementCountsEpochs() throws {
    let folder = try scratchFolder()
    _ = try energylab(
      [
        "track", "synth", "-o", "h.gpx", "--speed", "1.3mps", "--duration", "20min", "--heart-rate", "120bpm",
      ], in: folder)
    let out = try energylab(
      [
        "agreement", "h.gpx", "--models", "acsm-walking,keytel-2005,resting", "--mass", "70kg", "--age", "30",
        "--sex", "male", "--format", "json", "--db", "a.sqlite", "--charts", "charts",
      ],
      in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    #expect(rows.count == 3)
    #expect(rows.allSatisfy { $0["n"] as? Int == 20 })
    // ACSM 1.3 m/s level (11.3 mL/kg/min) minus resting (3.5): 7.8 x 70 x 5/1000 = 2.73 kcal/min.
    let acsmResting = try #require(
      rows.first { $0["a"] as? String == "acsm-walking" && $0["b"] as? String == "resting" })
    expectClose(acsmResting["bias_kcal_per_min"] as? Double, 2.73, tolerance: 0.01, "bias_kcal_per_min")
    // At one speed every pair keeps one ratio, so no Bland-Altman chart is
    // drawn (its points would lie on one line through zero): a note says
    // so, with the ratio. ACSM against resting: (11.3 - 3.5) / 3.5 = +222.9 %.
    for pair in [
      "acsm-walking against keytel-2005", "acsm-walking against resting", "keytel-2005 against resting",
    ] {
      #expect(out.stderr.contains("chart \"Bland-Altman: \(pair) (n = 20)\" not drawn"), "\(out.stderr)")
    }
    #expect(out.stderr.contains("differs from resting by about 222.9 % of resting"), "\(out.stderr)")
    #expect(!out.stderr.contains("bland-altman.png"), "\(out.stderr)")
    let stored = try energylab(
      ["db", "export", "--db", "a.sqlite", "--table", "error_summaries", "--format", "json"], in: folder)
    let summaries = try #require(
      JSONSerialization.jsonObject(with: Data(stored.stdout.utf8)) as? [[String: Any]], "\(stored.stderr)")
    let bias = try #require(
      summaries.first {
        $0["model"] as? String == "acsm-walking" && $0["reference"] as? String == "resting"
          && $0["statistic"] as? String == "bias" && $0["unit"] as? String == "kcal/min"
      })
    expectClose(bias["value"] as? Double, 2.73, tolerance: 0.01, "value")
  }

  /// ACSM walking at 6 mph is outside its 1.9-3.7 mph range: `agreement`
  /// says so, as `energy` does.
  @Test func agreementReportsModelsOutsideTheirRange() throws {
    let folder = try scratchFolder()
    _ = try energylab(
      ["track", "synth", "-o", "run.gpx", "--speed", "6mph", "--duration", "5min"], in: folder)
    let out = try energylab(
      ["agreement", "run.gpx", "--models", "acsm-walking,acsm-running", "--mass", "70kg"], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    #expect(
      out.stderr.contains(
        "6.00 mph is outside the walking equation's 1.9-3.7 mph [speed-outside-valid-range]"),
      "\(out.stderr)")
  }

  /// The shipped walk regenerates byte for byte from the command in its README.
  @Test func shippedWalkRegenerates() throws {
    let folder = try scratchFolder()
    let out = try energylab(
      [
        "track", "synth", "-o", "w.gpx", "--speed", "2.9mph", "--grade", "2%", "--duration", "10min",
        "--interval", "1",
        "--latitude", "50.8671", "--longitude=-0.0873", "--elevation", "50", "--azimuth", "45", "--start",
        "2012-05-08T09:00:00Z", "--noise", "0", "--seed", "1", "--name", "PEM worked-example walk",
      ], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    let fresh = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/w.gpx"))
    let shipped = try Data(
      contentsOf: URL(fileURLWithPath: "\(packageRoot)/Datasets/pem-walk/walk-2.9mph-2pct.gpx"))
    #expect(fresh == shipped)
  }
}

/// The lowest and highest 20 m grade per activity (the PEM thesis keeps
/// both per period, L1292): the hilly trip was built (Datasets/hilly-trip
/// README) with a first walk of 5 min up +5 % and 5 min down -3 %, and a
/// last walk up +2 %.
struct GradeRangeTests {
  @Test func lowestAndHighestGradePerActivity() throws {
    let out = try energylab(
      ["energy", "Datasets/hilly-trip/hilly-trip.gpx", "--by-mode", "--mass", "65kg", "--format", "json"],
      in: packageRoot)
    #expect(out.status == 0, "\(out.stderr)")
    let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    let walks = rows.filter { $0["mode"] as? String == "walk" }
    #expect(walks.count == 2)
    guard walks.count == 2 else { return }
    expectClose((walks[0]["grade_min_pct"] as? Double ?? 0), -3, tolerance: 0.05, "\(walks[0])")
    expectClose((walks[0]["grade_max_pct"] as? Double ?? 0), 5, tolerance: 0.05, "\(walks[0])")
    expectClose((walks[1]["grade_max_pct"] as? Double ?? 0), 2, tolerance: 0.1, "\(walks[1])")
  }
}
