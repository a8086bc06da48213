import EnergyLabCore
import Foundation

/// A chart written as an editable gnuplot script (`NAME.gp`) plus its data
/// (`NAME.dat`), rendered to `NAME.png` (pngcairo) and `NAME.svg` when
/// gnuplot is installed.
///
/// Text from data (titles, series names, labels) is written in gnuplot's
/// single-quoted strings, where backquoted text is not run as a shell
/// command, and with `noenhanced` so that `^`, `_` and `@` print as they are.
package struct GnuplotChart: Sendable, Hashable {
  package enum Style: String, Sendable, Hashable {
    case points
    case lines
    case linesPoints = "linespoints"
    case boxes
  }

  package struct Series: Sendable, Hashable {
    package var title: String
    package var style: Style
    package var points: [Point]
    /// A label beside each point (a participant, a table cell), drawn
    /// when set: for few points, so each can be found in the table.
    package var pointLabels: [String]?
    /// The lower and upper end of an interval around each point's y (a
    /// 95 % confidence interval), drawn as error bars when set.
    package var intervals: [ClosedRange<Double>]?
    package init(
      title: String, style: Style, points: [Point], pointLabels: [String]? = nil,
      intervals: [ClosedRange<Double>]? = nil
    ) {
      self.title = title
      self.style = style
      self.points = points
      self.pointLabels = pointLabels
      self.intervals = intervals
    }
  }

  package struct Point: Sendable, Hashable {
    package var x: Double
    package var y: Double
    package init(_ x: Double, _ y: Double) {
      self.x = x
      self.y = y
    }
  }

  /// A horizontal reference line (a mean, a limit of agreement).
  package struct HorizontalLine: Sendable, Hashable {
    package var y: Double
    package var title: String
    package init(y: Double, title: String) {
      self.y = y
      self.title = title
    }
  }

  /// File stem, made safe for file names.
  package var name: String
  package var title: String
  package var xLabel: String
  package var yLabel: String
  package var series: [Series]
  package var horizontalLines: [HorizontalLine] = []
  /// Why the chart would mislead, when its writer knows from data the
  /// chart does not hold (a Bland-Altman chart of one constant ratio, a
  /// share chart where one mode holds everything): not drawn, and the
  /// report says why.
  package var notDrawnReason: String?
  /// Draws y = x, for predicted-against-reference charts.
  package var identityLine = false
  /// When set, the chart is a heat map of these cells instead of series.
  package var heatMap: HeatMap?
  /// When set, the chart is a diverging stacked bar chart of ordinal answers.
  package var divergingBars: DivergingBars?

  /// Ordinal answers as horizontal bars centred on the neutral answer:
  /// answers below neutral extend left, above it right, the neutral one is
  /// split across zero, and not-applicable answers stand apart on the right.
  package struct DivergingBars: Sendable, Hashable {
    package var questions: [String]
    /// Scale labels, lowest first.
    package var labels: [String]
    /// `percentages[question][label]`, of answers on the scale.
    package var percentages: [[Double]]
    /// Index of the neutral label, if any.
    package var neutralIndex: Int?
    /// Not-applicable share per question, percent of all answers.
    package var notApplicable: [Double]
    /// Shares of partial counts (several options whose split is unknown):
    /// per question, the lowest and highest label index they cover and the
    /// percent; drawn hatched, never split.
    package var partial: [[PartialShare]]

    package struct PartialShare: Sendable, Hashable {
      package var low: Int
      package var high: Int
      package var percent: Double
      package init(low: Int, high: Int, percent: Double) {
        self.low = low
        self.high = high
        self.percent = percent
      }
    }

    package init(
      questions: [String], labels: [String], percentages: [[Double]], neutralIndex: Int?,
      notApplicable: [Double],
      partial: [[PartialShare]]? = nil
    ) {
      self.questions = questions
      self.labels = labels
      self.percentages = percentages
      self.neutralIndex = neutralIndex
      self.notApplicable = notApplicable
      self.partial = partial ?? questions.map { _ in [] }
    }

    /// Segments as (question index, label index, left, right), label index
    /// -1 for not applicable and -2 for a partial count.
    package var segments: [(question: Int, label: Int, left: Double, right: Double)] {
      var out: [(Int, Int, Double, Double)] = []
      let centre = neutralIndex.map(Double.init) ?? Double(labels.count - 1) / 2
      for (q, row) in percentages.enumerated() {
        // Items in scale order: labels at their index, partial counts at the
        // middle of the labels they cover.
        var items: [(position: Double, label: Int, percent: Double)] = row.enumerated().map {
          (Double($0), $0, $1)
        }
        for p in partial[q] { items.append((Double(p.low + p.high) / 2, -2, p.percent)) }
        items.sort { $0.position < $1.position }
        let neutralShare = items.filter { $0.position == centre }.reduce(0) { $0 + $1.percent }
        var x = -neutralShare / 2 - items.filter { $0.position < centre }.reduce(0) { $0 + $1.percent }
        for item in items where item.percent > 0 {
          out.append((q, item.label, x, x + item.percent))
          x += item.percent
        }
        if notApplicable[q] > 0 { out.append((q, -1, 105, 105 + notApplicable[q])) }
      }
      return out
    }
  }

  /// When set, the chart is bars per category instead of series.
  package var stackedBars: StackedBars?

  /// When set, the chart is one row per question with a dot at its value
  /// on an ordinal scale (and a bar from its lower to upper quartile when
  /// several answered): for one-way scales (severity 0-4), where bars
  /// diverging around a middle answer would mislead.
  package var dotPlot: DotPlot?

  package struct DotPlot: Sendable, Hashable {
    package var questions: [String]
    /// Scale labels, lowest first, drawn at 0, 1, 2, ...
    package var labels: [String]
    /// Per question: the median position and the quartile positions.
    package var medians: [Double]
    package var lower: [Double]
    package var upper: [Double]
    package init(questions: [String], labels: [String], medians: [Double], lower: [Double], upper: [Double]) {
      self.questions = questions
      self.labels = labels
      self.medians = medians
      self.lower = lower
      self.upper = upper
    }
  }

  /// Ranges of x shaded behind the data (a model's valid range).
  package var shadedRanges: [ShadedRange] = []

  package struct ShadedRange: Sendable, Hashable {
    package var from: Double
    package var to: Double
    package var title: String
    package init(from: Double, to: Double, title: String) {
      self.from = from
      self.to = to
      self.title = title
    }
  }

  /// The y axis starts at zero: for rates and counts, where an axis cut
  /// above zero makes small differences look large.
  package var yFromZero = false

  /// x values are seconds since 1970 of local clock time (a time zone's
  /// offset already added), drawn as dates and times.
  package var xIsLocalTime = false

  /// A logarithmic x axis, for quantities over several decades (a power
  /// curve from 1 s to an hour); every x must be above zero.
  package var xLogarithmic = false

  /// Bars per category, one segment (or, clustered, one bar) per series.
  package struct StackedBars: Sendable, Hashable {
    package var categories: [String]
    package var seriesTitles: [String]
    /// `values[category][series]`.
    package var values: [[Double]]
    /// Side by side instead of stacked.
    package var clustered: Bool
    /// Top of the y axis when the values are shares of a known whole (the
    /// respondents n, 100 %), so the axis covers every possible answer.
    package var yMaximum: Double?
    /// Per category, whether its value is not an exact figure (a partial
    /// count over several options, an approximate share); with one series,
    /// such bars are hatched and named in the key.
    package var marked: [Bool]
    /// Key entry of the hatched bars.
    package var markedTitle: String
    /// A second line under each category's label (the days behind an
    /// hour's mean: `3 d`).
    package var subLabels: [String]?
    package init(
      categories: [String], seriesTitles: [String], values: [[Double]], clustered: Bool = false,
      yMaximum: Double? = nil, marked: [Bool]? = nil,
      markedTitle: String = "partial or approximate (see table)", subLabels: [String]? = nil
    ) {
      self.subLabels = subLabels
      self.categories = categories
      self.seriesTitles = seriesTitles
      self.values = values
      self.clustered = clustered
      self.yMaximum = yMaximum
      self.marked = marked ?? categories.map { _ in false }
      self.markedTitle = markedTitle
    }

    /// Whether some bar is drawn hatched (one series only).
    var hasMarks: Bool { seriesTitles.count == 1 && marked.contains(true) }

    /// Characters per line of a category label: the plot width (about 760
    /// pixels, over one slot per category plus one) at about 7 pixels per
    /// character.
    var labelWidth: Int { max(6, min(30, 760 / (categories.count + 1) / 7 - 1)) }

    /// Category labels broken into lines at word boundaries.
    var labelLines: [[String]] {
      categories.enumerated().map { i, category in
        GnuplotChart.lines(of: category, width: labelWidth) + (subLabels.map { [$0[i]] } ?? [])
      }
    }
  }

  /// Values over a grid, drawn as coloured cells with a diverging palette
  /// centred on zero.
  package struct HeatMap: Sendable, Hashable {
    package var xKeys: [Double]
    package var yKeys: [Double]
    /// `values[y][x]`.
    package var values: [[Double]]
    package var valueLabel: String
    package init(xKeys: [Double], yKeys: [Double], values: [[Double]], valueLabel: String) {
      self.xKeys = xKeys
      self.yKeys = yKeys
      self.values = values
      self.valueLabel = valueLabel
    }
  }

  package init(name: String, title: String, xLabel: String, yLabel: String, series: [Series]) {
    self.name = name
    self.title = title
    self.xLabel = xLabel
    self.yLabel = yLabel
    self.series = series
  }

  /// The data file: one block per series, blocks separated by two blank
  /// lines (gnuplot's `index`).
  package func dataText() -> String {
    var out = "# \(sanitizedComment(title))\n"
    if let bars = divergingBars {
      out += "# question_index label_index left right (percent; label -1 = not applicable)\n"
      for seg in bars.segments {
        out +=
          "\(seg.question + 1) \(seg.label + 2) \(Fixed.shortest(seg.left)) \(Fixed.shortest(seg.right))\n"
      }
      return out
    }
    if let bars = stackedBars {
      out += "# category " + bars.seriesTitles.map(sanitizedComment).joined(separator: " ") + "\n"
      if bars.hasMarks { out += "# exact values in column 2, partial or approximate ones in column 3\n" }
      for (i, lines) in bars.labelLines.enumerated() {
        var values = bars.values[i].map { Fixed.shortest($0) }
        if bars.hasMarks { values = bars.marked[i] ? ["0"] + values : values + ["0"] }
        out += Self.dataString(lines.joined(separator: "\\n")) + " " + values.joined(separator: " ") + "\n"
      }
      return out
    }
    if let dots = dotPlot {
      out += "# question_index median lower_quartile upper_quartile (scale positions from 0)\n"
      for i in dots.questions.indices {
        out +=
          "\(i + 1) \(Fixed.shortest(dots.medians[i])) \(Fixed.shortest(dots.lower[i])) \(Fixed.shortest(dots.upper[i]))\n"
      }
      return out
    }
    if let map = heatMap {
      out += "# x y value, one block per row of the grid\n"
      for (r, y) in map.yKeys.enumerated() {
        for (c, x) in map.xKeys.enumerated() {
          out += "\(Fixed.shortest(x)) \(Fixed.shortest(y)) \(Fixed.shortest(map.values[r][c]))\n"
        }
        out += "\n"
      }
      return out
    }
    for (i, s) in series.enumerated() {
      if i > 0 { out += "\n\n" }
      let columns =
        "x y" + (s.intervals != nil ? " lower upper" : "") + (s.pointLabels != nil ? " label" : "")
      out += "# series \(i): \(sanitizedComment(s.title))\n# \(columns)\n"
      var broken = false
      for (k, p) in s.points.enumerated() {
        // An unknown y on a line is a gap: one blank line breaks it
        // (two would start a new series).
        if s.style == .lines && !p.y.isFinite && s.intervals == nil && s.pointLabels == nil {
          if !broken && k > 0 { out += "\n" }
          broken = true
          continue
        }
        broken = false
        out += "\(Fixed.shortest(p.x)) \(Fixed.shortest(p.y))"
        if let range = s.intervals?[k] {
          out += " \(Fixed.shortest(range.lowerBound)) \(Fixed.shortest(range.upperBound))"
        }
        if let label = s.pointLabels?[k] { out += " " + Self.dataString(label) }
        out += "\n"
      }
    }
    return out
  }

  /// The gnuplot script; it reads `NAME.dat` and writes `NAME.png` and
  /// `NAME.svg` in its own folder.
  /// The script; `stem` names its data and image files (default: the
  /// chart's name as a slug).
  package func scriptText(stem given: String? = nil) -> String {
    let stem = given ?? GnuplotChart.safeFileStem(name)
    var plots: [String] = []
    // A series without points would be a key entry for nothing drawn.
    for (i, s) in series.enumerated() where !s.points.isEmpty {
      let style = s.style == .boxes ? "boxes fill solid 0.6 border -1" : s.style.rawValue
      let ls = Self.lineStyle(title: s.title, index: i)
      if s.intervals != nil {
        plots.append(
          "'\(stem).dat' index \(i) using 1:2:3:4 with yerrorbars ls \(ls) title \(Self.quote(s.title))")
        if s.style != .points {
          plots.append("'\(stem).dat' index \(i) using 1:2 with lines ls \(ls) notitle")
        }
      } else {
        plots.append("'\(stem).dat' index \(i) using 1:2 with \(style) ls \(ls) title \(Self.quote(s.title))")
      }
      if s.pointLabels != nil {
        let column = s.intervals != nil ? 5 : 3
        plots.append(
          "'\(stem).dat' index \(i) using 1:2:\(column) with labels left offset char 0.6,0.5 font ',9' tc ls \(ls) notitle"
        )
      }
    }
    for (k, line) in horizontalLines.enumerated() {
      plots.append(
        "\(Fixed.shortest(line.y)) with lines ls \(Self.referenceStyle(k)) title \(Self.quote(line.title))")
    }
    if identityLine { plots.append("x with lines ls 20 title 'y = x'") }
    var heat = ""
    if let bars = divergingBars {
      let palette = ["#b2182b", "#ef8a62", "#fddbc7", "#d9d9d9", "#d1e5f0", "#67a9cf", "#2166ac"]
      func colour(_ i: Int) -> String {
        let n = bars.labels.count
        guard n > 1 else { return palette[3] }
        if let neutral = bars.neutralIndex, i == neutral { return palette[3] }
        let position = Double(i) / Double(n - 1) * 6
        return palette[min(6, max(0, Int(position.rounded())))]
      }
      var styles = "set linetype 30 lc rgb '#bbbbbb'\n"
      for i in bars.labels.indices { styles += "set linetype \(31 + i) lc rgb '\(colour(i))'\n" }
      let ytics = bars.questions.enumerated().map { "\(Self.wrapped($1)) \($0 + 1)" }.joined(separator: ", ")
      heat =
        styles + """
          set ytics (\(ytics)) noenhanced
          set yrange [0.4:\(bars.questions.count).6]
          set xrange [-100:130]
          set xzeroaxis lt -1
          set style fill solid 0.9 border -1
          set lmargin 50
          set key above horizontal box noenhanced

          """
      var barPlots = [
        "'\(stem).dat' using ($2 >= 1 ? ($3+$4)/2 : NaN):1:(($4-$3)/2):(0.35):($2 + 29) with boxxyerror lc variable notitle"
      ]
      if bars.partial.contains(where: { !$0.isEmpty }) {
        barPlots.append(
          "'\(stem).dat' using ($2 == 0 ? ($3+$4)/2 : NaN):1:(($4-$3)/2):(0.35) with boxxyerror fill pattern 4 border lc rgb '#4d4d4d' lc rgb '#4d4d4d' title 'several options, split not published'"
        )
      }
      // A key entry for each answer drawn, none for an answer no one gave.
      let drawn = Set(bars.segments.map(\.label))
      for (i, label) in bars.labels.enumerated() where drawn.contains(i) {
        barPlots.append("NaN with boxes lt \(31 + i) title \(Self.quote(label))")
      }
      if bars.notApplicable.contains(where: { $0 > 0 }) {
        barPlots.append("NaN with boxes lt 30 title 'not applicable'")
      }
      plots = barPlots
    }
    if let bars = stackedBars {
      // Category labels are wrapped, not rotated; gnuplot sizes neither the
      // margin nor the x title's place for labels of several lines, so both
      // are set here: label lines and the x title (the key is above).
      let tickLines = bars.labelLines.map(\.count).max() ?? 1
      // A series with no value above zero draws nothing: it has no key
      // entry (the table gives its zeros).
      let drawnSeries = bars.seriesTitles.indices.filter { k in
        bars.values.contains { $0[k].isFinite && $0[k] != 0 }
      }
      let keyShown = bars.seriesTitles.count > 1 || !horizontalLines.isEmpty || bars.hasMarks
      let top = bars.yMaximum.map { Fixed.shortest($0) } ?? "*"
      // A tick at the top, so the picture shows the axis reaching n.
      let nTick = bars.yMaximum.map { "set ytics add (\(Fixed.shortest($0)))\n" } ?? ""
      heat = """
        set style data histograms
        set style histogram \(bars.clustered && !bars.hasMarks ? "clustered gap 1" : "rowstacked")
        set style fill solid 0.8 border -1
        set boxwidth 0.75
        set xtics noenhanced
        set xlabel offset 0,\(-(tickLines - 1))
        set yrange [0:\(top)]
        \(nTick)set bmargin \(tickLines + 3)
        \(keyShown ? "" : "unset key\n")
        """
      var barPlots: [String] = []
      for (n, k) in drawnSeries.enumerated() {
        let title = bars.seriesTitles[k]
        let source = n == 0 ? "'\(stem).dat'" : "''"
        let xtic = n == 0 ? ":xtic(1)" : ""
        barPlots.append(
          "\(source) using \(k + 2)\(xtic) ls \(Self.lineStyle(title: title, index: k)) title \(Self.quote(title))"
        )
      }
      if bars.hasMarks {
        barPlots.append("'' using 3 ls 1 fill pattern 4 border -1 title \(Self.quote(bars.markedTitle))")
      }
      for (k, line) in horizontalLines.enumerated() {
        barPlots.append(
          "\(Fixed.shortest(line.y)) with lines ls \(Self.referenceStyle(k)) title \(Self.quote(line.title))")
      }
      plots = barPlots
    }
    if let dots = dotPlot {
      let ytics = dots.questions.enumerated().map { "\(Self.wrapped($1)) \($0 + 1)" }.joined(separator: ", ")
      let xtics = dots.labels.enumerated().map { "\(Self.quote($1)) \($0)" }.joined(separator: ", ")
      heat = """
        set ytics (\(ytics)) noenhanced
        set xtics (\(xtics)) noenhanced
        set yrange [\(dots.questions.count).6:0.4]
        set xrange [-0.3:\(Fixed.shortest(Double(dots.labels.count) - 0.7))]
        set lmargin 50
        unset key

        """
      plots = [
        "'\(stem).dat' using 2:1:3:4 with xerrorbars ls 1 notitle",
        "'\(stem).dat' using 2:1:(sprintf('%g', $2)) with labels offset 0,1 notitle",
      ]
    }
    if let map = heatMap {
      let limit = max(1e-9, map.values.joined().map { abs($0) }.filter(\.isFinite).max() ?? 1)
      heat = """
        set view map
        unset key
        set palette defined (-1 '#2166ac', 0 '#f7f7f7', 1 '#b2182b')
        set cbrange [\(Fixed.shortest(-limit)):\(Fixed.shortest(limit))]
        set cblabel \(Self.quote(map.valueLabel)) noenhanced
        set xrange [*:*] noextend
        set yrange [*:*] noextend

        """
      plots = ["'\(stem).dat' using 1:2:3 with image notitle"]
    }
    let extra = decorations(plots: &plots)
    return """
      # EnergyLab chart: \(sanitizedComment(title))
      # Edit and run with: gnuplot \(stem).gp
      set encoding utf8
      set title \(Self.wrapped(title, width: 80)) noenhanced
      set xlabel \(Self.quote(xLabel)) noenhanced
      set ylabel \(Self.quote(yLabel)) noenhanced
      set key above box noenhanced
      set grid lc rgb '#dddddd'
      set border 3
      set tics nomirror
      set style line 1 lc rgb '#1b6ca8' pt 7 ps 0.7 lw 2
      set style line 2 lc rgb '#d1495b' pt 5 ps 0.7 lw 2
      set style line 3 lc rgb '#2e933c' pt 9 ps 0.8 lw 2
      set style line 4 lc rgb '#edae49' pt 11 ps 0.8 lw 2
      set style line 5 lc rgb '#66468c' pt 13 ps 0.8 lw 2
      set style line 6 lc rgb '#00798c' pt 15 ps 0.8 lw 2
      set style line 7 lc rgb '#8c510a' pt 4 ps 0.8 lw 2
      set style line 10 lc rgb '#333333' dt 1 lw 1.5
      set style line 11 lc rgb '#777777' dt 2 lw 1.5
      set style line 12 lc rgb '#b2182b' dt 4 lw 1.5
      set style line 13 lc rgb '#2166ac' dt 5 lw 1.5
      set style line 14 lc rgb '#8c510a' dt 3 lw 2
      set style line 15 lc rgb '#66468c' dt 6 lw 2
      set style line 20 lc rgb '#999999' dt 3 lw 1.5
      \(Self.modeStyles)\(heat)\(extra)set terminal pngcairo size 900,560 enhanced font 'Sans,11'
      set output '\(stem).png'
      plot \(plots.joined(separator: ", \\\n     "))
      set terminal svg size 900,560 dynamic font 'Sans,11'
      set output '\(stem).svg'
      replot
      unset output

      """
  }

  /// Settings shared by the chart kinds: shaded ranges (with a key
  /// entry each), a local-time x axis, and no key for a single series.
  private func decorations(plots: inout [String]) -> String {
    var out = ""
    let shades = ["#2e933c", "#1b6ca8", "#d1495b", "#edae49", "#66468c"]
    for (k, range) in shadedRanges.enumerated() {
      let colour = shades[k % shades.count]
      out +=
        "set object \(k + 1) rect from \(Fixed.shortest(range.from)), graph 0 to \(Fixed.shortest(range.to)), graph 1 behind fc rgb '\(colour)' fs transparent solid 0.12 noborder\n"
      plots.append(
        "NaN with boxes fs transparent solid 0.12 noborder lc rgb '\(colour)' title \(Self.quote(range.title))"
      )
    }
    if yFromZero && heatMap == nil && divergingBars == nil && stackedBars == nil && dotPlot == nil {
      out += "set yrange [0:*]\n"
    }
    // Room right of and above the points for their labels.
    if series.contains(where: { $0.pointLabels != nil }) {
      out += "set offsets 0, graph 0.12, graph 0.06, 0\n"
    }
    if xLogarithmic && !xIsLocalTime && heatMap == nil && stackedBars == nil && divergingBars == nil {
      out += "set logscale x 10\n"
    }
    if xIsLocalTime {
      out += "set xdata time\nset timefmt '%s'\nset format x \"%d %b\\n%H:%M\"\n"
    }
    let special = heatMap != nil || divergingBars != nil || stackedBars != nil || dotPlot != nil
    if !special && series.count == 1 && horizontalLines.isEmpty && !identityLine && shadedRanges.isEmpty {
      out += "unset key\n"
    }
    return out
  }

  /// A label wrapped into lines of about `width` characters, as a gnuplot
  /// string expression (single-quoted parts joined by line breaks), so a
  /// long question is shown whole rather than cut.
  package static func wrapped(_ text: String, width: Int = 45) -> String {
    lines(of: text, width: width).map(quote).joined(separator: ".\"\\n\".")
  }

  /// Text broken into lines of at most `width` characters at spaces (a
  /// longer word keeps a line of its own).
  static func lines(of text: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in PrintableText.clean(text).split(separator: " ") {
      if !line.isEmpty && line.count + 1 + word.count > width {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    if !line.isEmpty || lines.isEmpty { lines.append(line) }
    return lines
  }

  /// A string in a gnuplot data file: double-quoted, with quotes and line
  /// breaks replaced (data files run no commands).
  static func dataString(_ text: String) -> String {
    "\"" + PrintableText.clean(text).replacingOccurrences(of: "\"", with: "'") + "\""
  }

  /// A gnuplot single-quoted string: quotes doubled, line breaks and other
  /// control characters (ESC, BEL, ...) replaced by spaces, Unicode kept.
  /// gnuplot's scanner reads a string that opens with a doubled quote
  /// (`'''Green'' routes'`) as an empty string and a stray token, so a
  /// leading quote is joined on as the double-quoted `"'"`, which holds no
  /// backquote or backslash for gnuplot to act on.
  package static func quote(_ text: String) -> String {
    let clean = PrintableText.clean(text)
    if clean.hasPrefix("'") { return "\"'\"." + quote(String(clean.dropFirst())) }
    return "'" + clean.replacingOccurrences(of: "'", with: "''") + "'"
  }

  /// An ASCII slug: lower-case letters, digits, `-` and `_`, runs of
  /// anything else one `-`, never starting with `-` (which gnuplot and
  /// other programs would read as an option): `Übung` is `bung`, `-p` is
  /// `p`, and a name with no letter or digit is `chart`.
  package static func safeFileStem(_ text: String) -> String {
    var out = ""
    // Letters keep their base letter (Übung -> ubung): the decomposed form
    // without its combining marks.
    let folded = String(
      String.UnicodeScalarView(
        text.decomposedStringWithCanonicalMapping.unicodeScalars.filter {
          $0.properties.generalCategory != .nonspacingMark
        }))
    for c in folded.lowercased() {
      if c.isASCII && (c.isLetter || c.isNumber || c == "_") {
        out.append(c)
      } else if !out.isEmpty && out.last != "-" {
        out.append("-")
      }
    }
    while out.last == "-" { out.removeLast() }
    while let first = out.first, !(first.isLetter || first.isNumber) { out.removeFirst() }
    return out.isEmpty ? "chart" : out
  }

  /// Text for a `#` comment line: a backslash at its end would join the
  /// next line to the comment (in a script, a command; in a data file, the
  /// first row), so it is followed by a space.
  private func sanitizedComment(_ text: String) -> String {
    let clean = PrintableText.clean(text)
    return clean.hasSuffix("\\") ? clean + " " : clean
  }
}

/// What rendering a chart produced.
package struct RenderedChart: Sendable, Hashable {
  /// Paths of the files written, relative to the folder given.
  package var files: [String]
  /// Set when the images could not be made (gnuplot missing or failing);
  /// the script and data are written all the same.
  package var skippedReason: String?
  package var pngFile: String
  /// Whether gnuplot ran and failed (as opposed to not being installed).
  package var failed = false
}

/// Writes charts and drives gnuplot without a shell.
package enum GnuplotRenderer {
  /// The gnuplot executable on PATH, if any.
  package static func gnuplotPath() -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
      let candidate = "\(folder)/gnuplot"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// Writes `NAME.gp` and `NAME.dat` into `folder`, then runs gnuplot on
  /// the script there. The images are drawn into a private folder beside
  /// them and renamed into place only when gnuplot succeeded and each image
  /// is whole (a PNG ends with its IEND chunk, an SVG with `</svg>`): a full
  /// disk, which gnuplot does not report, is an `OutputError` naming the
  /// image, and no partial image is left behind.
  package static func render(_ chart: GnuplotChart, into folder: String, stem given: String? = nil) throws
    -> RenderedChart
  {
    let stem = given ?? GnuplotChart.safeFileStem(chart.name)
    try AtomicFile.createFolder(folder)
    try AtomicFile.write(chart.dataText(), to: "\(folder)/\(stem).dat")
    try AtomicFile.write(chart.scriptText(stem: stem), to: "\(folder)/\(stem).gp")
    var files = ["\(stem).gp", "\(stem).dat"]
    guard let gnuplot = gnuplotPath() else {
      return RenderedChart(
        files: files, skippedReason: "gnuplot not installed; wrote \(stem).gp and \(stem).dat only",
        pngFile: "\(stem).png")
    }
    // gnuplot writes its images into `drawing`, reading the script and
    // data from the folder above through relative paths.
    let drawing = TemporaryFiles.name(for: "\(folder)/\(stem)", kind: "partial")
    TemporaryFiles.register(drawing)
    defer {
      try? FileManager.default.removeItem(atPath: drawing)
      TemporaryFiles.unregister(drawing)
    }
    try AtomicFile.createFolder(drawing)
    guard symlink("../\(stem).dat", "\(drawing)/\(stem).dat") == 0 else {
      throw OutputError(.file, drawing, reason: "cannot link the data: \(String(cString: strerror(errno)))")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: gnuplot)
    // A path, so no file name is read as an option.
    process.arguments = ["../\(stem).gp"]
    process.currentDirectoryURL = URL(fileURLWithPath: drawing)
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      return RenderedChart(
        files: files,
        skippedReason: "gnuplot failed on \(stem).gp: \(message.split(separator: "\n").last ?? "")",
        pngFile: "\(stem).png", failed: true)
    }
    for image in ["\(stem).png", "\(stem).svg"] {
      let drawn = "\(drawing)/\(image)"
      if let problem = ImageCheck.problem(atPath: drawn) {
        throw OutputError(
          .file, "\(folder)/\(image)",
          reason: "gnuplot's image is incomplete (\(problem)); is the disk full? nothing written")
      }
    }
    for image in ["\(stem).png", "\(stem).svg"] {
      guard rename("\(drawing)/\(image)", "\(folder)/\(image)") == 0 else {
        throw OutputError(
          .file, "\(folder)/\(image)", reason: "rename failed: \(String(cString: strerror(errno)))")
      }
    }
    files += ["\(stem).png", "\(stem).svg"]
    return RenderedChart(files: files, skippedReason: nil, pngFile: "\(stem).png")
  }
}

/// Whether an image gnuplot wrote is whole: gnuplot does not check its
/// writes, so a full disk leaves a truncated file and exit status 0.
package enum ImageCheck {
  /// The PNG trailer: the IEND chunk with its CRC.
  static let pngEnd: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
  static let pngStart: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// Why the file at `path` is not a whole PNG or SVG (by extension), or
  /// nil when it is.
  package static func problem(atPath path: String) -> String? {
    guard let data = FileManager.default.contents(atPath: path) else { return "missing" }
    return problem(Array(data), svg: path.hasSuffix(".svg"))
  }

  /// Why `bytes` are not a whole image, or nil.
  package static func problem(_ bytes: [UInt8], svg: Bool) -> String? {
    if bytes.isEmpty { return "empty" }
    if svg {
      var end = bytes.count
      while end > 0, [0x0A, 0x0D, 0x20, 0x09].contains(bytes[end - 1]) { end -= 1 }
      let closing = Array("</svg>".utf8)
      return end >= closing.count && Array(bytes[(end - closing.count)..<end]) == closing
        ? nil : "\(bytes.count) bytes without the closing </svg>"
    }
    guard bytes.starts(with: pngStart) else { return "no PNG signature" }
    return bytes.count >= pngStart.count + pngEnd.count && Array(bytes.suffix(pngEnd.count)) == pngEnd
      ? nil : "\(bytes.count) bytes without the PNG end chunk"
  }
}

extension GnuplotChart {
  /// Why drawing the chart would mislead, when it would: bars that draw
  /// one value (or none), or a grid with one value in every cell. The
  /// value stays in the table beside it; nil for a chart worth drawing.
  package var notWorthDrawing: String? {
    if let notDrawnReason { return notDrawnReason }
    if let bars = divergingBars {
      let shares =
        bars.percentages.flatMap { $0 } + bars.notApplicable + bars.partial.flatMap { $0.map(\.percent) }
      let drawn = shares.filter { $0.isFinite && $0 != 0 }
      if drawn.count <= 1 {
        return drawn.isEmpty
          ? "nothing to draw"
          : "one share (\(Fixed.format(drawn[0], digits: 1)) %) would be one bar under a legend of answers not drawn; the table gives it"
      }
    }
    if let map = heatMap {
      let cells = map.values.flatMap { $0 }.filter(\.isFinite)
      // Cells that differ by under a tenth of the largest magnitude take
      // one colour of a palette centred on zero: one colour everywhere
      // says nothing a sentence does not.
      if let low = cells.min(), let high = cells.max(), cells.count > 1 {
        let mean = cells.reduce(0, +) / Double(cells.count)
        if high - low <= 0.1 * max(abs(low), abs(high)) {
          return
            "every cell is about \(Fixed.format(mean, digits: 1)) (\(map.valueLabel); from \(Fixed.format(low, digits: 1)) to \(Fixed.format(high, digits: 1))), which a sentence says better"
        }
      }
    }
    if let bars = stackedBars {
      let drawn = bars.values.flatMap { $0 }.filter { $0.isFinite && $0 != 0 }
      if drawn.count <= 1 {
        return drawn.isEmpty
          ? "nothing to draw" : "one value (\(Fixed.shortest(drawn[0]))) would be one bar; the table gives it"
      }
    }
    return nil
  }

  /// What the chart draws, without its name and title: two charts with
  /// the same are the same chart.
  package var drawnContent: GnuplotChart {
    var content = self
    content.name = ""
    content.title = ""
    return content
  }
}

extension GnuplotChart {
  /// One colour per transport mode in every chart, whatever its place
  /// among the chart's series: a series titled with a mode's name takes
  /// the mode's line style (40 and on), any other series its place's.
  static let modeColours: [(mode: TransportMode, colour: String)] = [
    (.walk, "#2e933c"), (.run, "#66468c"), (.cycle, "#edae49"), (.bus, "#1b6ca8"), (.car, "#d1495b"),
    (.train, "#00798c"), (.plane, "#333333"), (.vehicle, "#8c510a"), (.stationary, "#a6a6a6"),
  ]

  static var modeStyles: String {
    modeColours.enumerated().map { k, entry in
      "set style line \(40 + k) lc rgb '\(entry.colour)' pt 7 ps 0.7 lw 2\n"
    }.joined()
  }

  /// The line style of the `k`th horizontal reference line: six styles
  /// (10-15), each its own colour and dash, so no two thresholds or
  /// limits of a chart look alike.
  static func referenceStyle(_ k: Int) -> Int { 10 + k % 6 }

  static func lineStyle(title: String, index: Int) -> Int {
    if let k = modeColours.firstIndex(where: { $0.mode.rawValue == title }) { return 40 + k }
    return index + 1
  }
}
