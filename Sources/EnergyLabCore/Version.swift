/// The version of EnergyLab, printed by `energylab --version` and recorded
/// with every run.
public enum EnergyLabVersion {
  public static let current = "0.1.0"
}
