import EnergyLabCore

/// Every model EnergyLab ships, by identifier; the source of `models list`
/// and of the README's models table.
public enum ModelRegistry {
  public static let all: [any EnergyModel] =
    [
      ACSMWalking(), ACSMRunning(), ACSMByGait(), ACSMLegCycling(), ACSMArmErgometry(), ACSMStepping(),
      CameronWalking(), Keytel2005(), Keytel2005Pounds(), SwainHeartRateReserve(line: .identity1997),
      SwainHeartRateReserve(line: .treadmill1998), METModel(), PerStep.stepMyHealth,
      PerStep.birdsley2005, PerStep.configurable,
      StrideWalking(), Resting(), KineticEnergy(), KineticEnergy(method: .forceTimesDistance), Pandolf1977(),
      Minetti2002(gait: .walking),
      Minetti2002(gait: .running), MetabolicPowerRunning(), Looney2019(), PowerMeterEnergy(),
      Martin1998Cycling(),
    ] + Hildebrand2014.all + [Ellingson2017()] + CountsMET.Equation.allCases.map(CountsMET.init)
    + Crouter2015.Axis.allCases.map(Crouter2015.init) + [Crouter2010Refined()]

  public static func model(id: String) throws -> any EnergyModel {
    guard let model = all.first(where: { $0.info.id == id }) else {
      throw ValueError.unknown("model", id, among: all.map(\.info.id))
    }
    return model
  }
}
