import EnergyLabCore

extension TransportMode {
  /// The mode a file's declared activity names, or nil when it names none
  /// EnergyLab costs (TCX `Other`, an unknown word).
  ///
  /// Read case-insensitively, ignoring `_`, `-` and spaces: TCX writes
  /// `Running`, `Biking`, `Other`; GPX `<type>` as apps write it (`running`,
  /// `cycling`, `Walk`, `hiking`, `e_biking`); FIT `sport` names (`running`,
  /// `cycling`, `walking`, `hiking`, `e_biking`, `driving`, `training`),
  /// also with a FIT sub-sport after a slash (`cycling/indoor_cycling`:
  /// the part before the slash decides).
  public init?(declaredSport text: String) {
    let sport = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    let word = String(
      sport.lowercased().unicodeScalars.filter { !["_", "-", " "].contains(Character($0)) })
    let table: [(TransportMode, [String])] = [
      (
        .run,
        ["run", "running", "trailrun", "trailrunning", "jog", "jogging", "treadmillrunning", "virtualrun"]
      ),
      (.walk, ["walk", "walking", "hike", "hiking", "trek", "trekking", "speedwalking", "nordicwalking"]),
      (
        .cycle,
        [
          "bike", "biking", "cycle", "cycling", "ride", "ebike", "ebiking", "ebikeride", "mountainbiking",
          "roadbiking", "roadcycling", "gravelcycling", "virtualride", "mountainbikeride",
        ]
      ),
      (.bus, ["bus"]),
      (.car, ["car", "driving", "drive", "motorcycling", "motorcycle"]),
      (.train, ["train", "rail", "railway"]),
      (.plane, ["plane", "flight", "flying", "aviation"]),
    ]
    guard let mode = table.first(where: { $0.1.contains(word) })?.0 else { return nil }
    self = mode
  }
}
