import EnergyLabCore

extension ModelInput {
  /// The values about the person, each with its quantity, as the human
  /// limits check them.
  var personValues: [(HumanLimits.Quantity, Double?)] {
    [
      (.bodyMass, bodyMassKilograms), (.age, ageYears), (.height, heightMeters),
      (.heartRate, heartRateBeatsPerMinute), (.restingHeartRate, restingHeartRateBeatsPerMinute),
      (.maximumHeartRate, maximumHeartRateBeatsPerMinute),
      (.vo2Max, vo2MaxMillilitersPerKilogramPerMinute),
    ]
  }

  /// Throws a `ValueError` for the first value about the person outside
  /// `HumanLimits`: the same limits whether the value came from the command
  /// line, a subjects file or a file's user profile.
  public func checkHumanLimits() throws {
    for (quantity, value) in personValues {
      if let value { try HumanLimits.check(value, quantity) }
    }
  }
}
