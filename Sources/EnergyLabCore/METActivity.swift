/// One activity of a MET table (Compendium of Physical Activities).
public struct METActivity: Sendable, Hashable {
  /// The Compendium's five-digit code, as text (leading zeros matter).
  public var code: String
  /// Metabolic equivalent, MET (1 kcal/kg/h).
  public var metabolicEquivalent: Double
  /// Speed the activity states, mph; nil when it states none.
  public var speedMilesPerHour: Double?
  /// walking, running, cycling, passive or rest.
  public var group: String
  public var activity: String

  public init(
    code: String, metabolicEquivalent: Double, speedMilesPerHour: Double?, group: String, activity: String
  ) {
    self.code = code
    self.metabolicEquivalent = metabolicEquivalent
    self.speedMilesPerHour = speedMilesPerHour
    self.group = group
    self.activity = activity
  }
}
