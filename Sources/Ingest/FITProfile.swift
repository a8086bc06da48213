import EnergyLabCore

/// The parts of the FIT Profile the reader decodes: global message numbers,
/// field numbers, scales, offsets and units, and the enumerations it names.
///
/// A field's value is `raw / scale - offset` in the unit given. Source:
/// Garmin FIT SDK, Profile.xlsx (Messages and Types sheets), profile
/// version 21; checked against the fitdecode reader.
enum FITProfile {
  /// Global message numbers.
  enum Message {
    static let fileID: UInt16 = 0
    static let userProfile: UInt16 = 3
    static let sport: UInt16 = 12
    static let session: UInt16 = 18
    static let lap: UInt16 = 19
    static let record: UInt16 = 20
    static let event: UInt16 = 21
    static let deviceInfo: UInt16 = 23
  }

  /// `timestamp`, field 253 of every message: `date_time`, s.
  static let timestampField: UInt8 = 253

  /// `file_id` fields.
  enum FileID {
    /// `type` (enum `file`: 4 activity, ...).
    static let type: UInt8 = 0
    /// `manufacturer` (enum `manufacturer`, uint16).
    static let manufacturer: UInt8 = 1
    /// `product` (uint16).
    static let product: UInt8 = 2
    /// `serial_number` (uint32z).
    static let serialNumber: UInt8 = 3
    /// `time_created` (`date_time`).
    static let timeCreated: UInt8 = 4
    /// `product_name` (string).
    static let productName: UInt8 = 8
  }

  /// `record` fields.
  enum Record {
    /// `position_lat`, sint32 semicircles.
    static let positionLatitude: UInt8 = 0
    /// `position_long`, sint32 semicircles.
    static let positionLongitude: UInt8 = 1
    /// `altitude`, uint16, scale 5, offset 500, m.
    static let altitude: UInt8 = 2
    /// `heart_rate`, uint8, bpm.
    static let heartRate: UInt8 = 3
    /// `cadence`, uint8, rpm.
    static let cadence: UInt8 = 4
    /// `distance`, uint32, scale 100, m.
    static let distance: UInt8 = 5
    /// `speed`, uint16, scale 1000, m/s.
    static let speed: UInt8 = 6
    /// `power`, uint16, W.
    static let power: UInt8 = 7
    /// `compressed_speed_distance`, byte[3] read as a little-endian 24-bit
    /// number: bits 0-11 `speed` (scale 100, m/s), bits 12-23 `distance`
    /// (scale 16, m, accumulated); the reader uses the speed.
    static let compressedSpeedDistance: UInt8 = 8
    /// `temperature`, sint8, degrees C.
    static let temperature: UInt8 = 13
    /// `enhanced_speed`, uint32, scale 1000, m/s.
    static let enhancedSpeed: UInt8 = 73
    /// `enhanced_altitude`, uint32, scale 5, offset 500, m.
    static let enhancedAltitude: UInt8 = 78

    /// Whether the reader uses a field, by number: only these are decoded.
    static let used: [Bool] = (0..<256).map { number in
      [
        positionLatitude, positionLongitude, altitude, heartRate, cadence, distance, speed, power,
        compressedSpeedDistance, temperature, enhancedSpeed, enhancedAltitude,
      ].contains(UInt8(number))
    }
  }

  /// `session` fields (`lap` shares numbers 2 and 7-9).
  enum Session {
    /// `start_time`, `date_time`.
    static let startTime: UInt8 = 2
    /// `sport`, enum `sport`.
    static let sport: UInt8 = 5
    /// `sub_sport`, enum `sub_sport`.
    static let subSport: UInt8 = 6
    /// `total_elapsed_time`, uint32, scale 1000, s.
    static let totalElapsedTime: UInt8 = 7
    /// `total_timer_time`, uint32, scale 1000, s.
    static let totalTimerTime: UInt8 = 8
    /// `total_distance`, uint32, scale 100, m.
    static let totalDistance: UInt8 = 9
    /// `total_calories`, uint16, kcal.
    static let totalCalories: UInt8 = 11
    /// `avg_heart_rate`, uint8, bpm.
    static let averageHeartRate: UInt8 = 16
    /// `max_heart_rate`, uint8, bpm.
    static let maxHeartRate: UInt8 = 17
    /// `avg_power`, uint16, W.
    static let averagePower: UInt8 = 20
    /// `max_power`, uint16, W.
    static let maxPower: UInt8 = 21
    /// `total_ascent`, uint16, m.
    static let totalAscent: UInt8 = 22
    /// `total_descent`, uint16, m.
    static let totalDescent: UInt8 = 23
    /// `normalized_power`, uint16, W.
    static let normalizedPower: UInt8 = 34
    /// `training_stress_score`, uint16, scale 10.
    static let trainingStressScore: UInt8 = 35
    /// `intensity_factor`, uint16, scale 1000.
    static let intensityFactor: UInt8 = 36
    /// `threshold_power`, uint16, W: the FTP the device was set to.
    static let thresholdPower: UInt8 = 45
    /// `total_work`, uint32, J.
    static let totalWork: UInt8 = 48
  }

  /// `lap` fields (numbers 2 and 7-9 as in `session`; the others differ).
  enum Lap {
    /// `avg_heart_rate`, uint8, bpm.
    static let averageHeartRate: UInt8 = 15
    /// `max_heart_rate`, uint8, bpm.
    static let maxHeartRate: UInt8 = 16
    /// `avg_power`, uint16, W.
    static let averagePower: UInt8 = 19
    /// `max_power`, uint16, W.
    static let maxPower: UInt8 = 20
    /// `total_ascent`, uint16, m.
    static let totalAscent: UInt8 = 21
    /// `total_descent`, uint16, m.
    static let totalDescent: UInt8 = 22
    /// `normalized_power`, uint16, W.
    static let normalizedPower: UInt8 = 33
    /// `total_work`, uint32, J.
    static let totalWork: UInt8 = 41
  }

  /// `event` fields and values.
  enum Event {
    /// `event`, enum `event`.
    static let event: UInt8 = 0
    /// `event_type`, enum `event_type`.
    static let eventType: UInt8 = 1
    /// `event` value `timer`.
    static let timer: Double = 0
    /// `event_type` value `start`.
    static let start: Double = 0
    /// `event_type` values that stop the timer: `stop` (1), `stop_all`
    /// (4), `stop_disable` (8), `stop_disable_all` (9).
    static let stops: Set<Double> = [1, 4, 8, 9]
  }

  /// `user_profile` fields.
  enum UserProfile {
    /// `gender`, enum: 0 female, 1 male.
    static let gender: UInt8 = 1
    /// `age`, uint8, years.
    static let age: UInt8 = 2
    /// `height`, uint8, scale 100, m.
    static let height: UInt8 = 3
    /// `weight`, uint16, scale 10, kg.
    static let weight: UInt8 = 4
    /// `resting_heart_rate`, uint8, bpm.
    static let restingHeartRate: UInt8 = 8
    /// `default_max_heart_rate`, uint8, bpm.
    static let defaultMaxHeartRate: UInt8 = 11
  }

  /// `device_info` fields.
  enum DeviceInfo {
    /// `device_index`, uint8 (0 is the creator of the file).
    static let deviceIndex: UInt8 = 0
    /// `manufacturer`, enum `manufacturer`, uint16.
    static let manufacturer: UInt8 = 2
    /// `serial_number`, uint32z.
    static let serialNumber: UInt8 = 3
    /// `product`, uint16.
    static let product: UInt8 = 4
    /// `software_version`, uint16, scale 100.
    static let softwareVersion: UInt8 = 5
    /// `product_name`, string.
    static let productName: UInt8 = 27
  }

  /// `sport` message fields.
  enum SportMessage {
    static let sport: UInt8 = 0
    static let subSport: UInt8 = 1
    /// `name`, string.
    static let name: UInt8 = 3
  }

  /// Names of the enum `sport`, by value.
  static let sportNames: [Int: String] = [
    0: "generic", 1: "running", 2: "cycling", 3: "transition", 4: "fitness_equipment", 5: "swimming",
    6: "basketball", 7: "soccer", 8: "tennis", 9: "american_football", 10: "training", 11: "walking",
    12: "cross_country_skiing", 13: "alpine_skiing", 14: "snowboarding", 15: "rowing", 16: "mountaineering",
    17: "hiking", 18: "multisport", 19: "paddling", 20: "flying", 21: "e_biking", 22: "motorcycling",
    23: "boating", 24: "driving", 25: "golf", 26: "hang_gliding", 27: "horseback_riding", 28: "hunting",
    29: "fishing", 30: "inline_skating", 31: "rock_climbing", 32: "sailing", 33: "ice_skating",
    34: "sky_diving", 35: "snowshoeing", 36: "snowmobiling", 37: "stand_up_paddleboarding", 38: "surfing",
    39: "wakeboarding", 40: "water_skiing", 41: "kayaking", 42: "rafting", 43: "windsurfing",
    44: "kitesurfing", 45: "tactical", 46: "jumpmaster", 47: "boxing", 48: "floor_climbing",
    53: "diving", 254: "all",
  ]

  /// Names of the enum `sub_sport`, by value.
  static let subSportNames: [Int: String] = [
    0: "generic", 1: "treadmill", 2: "street", 3: "trail", 4: "track", 5: "spin", 6: "indoor_cycling",
    7: "road", 8: "mountain", 9: "downhill", 10: "recumbent", 11: "cyclocross", 12: "hand_cycling",
    13: "track_cycling", 14: "indoor_rowing", 15: "elliptical", 16: "stair_climbing", 17: "lap_swimming",
    18: "open_water", 19: "flexibility_training", 20: "strength_training", 21: "warm_up", 22: "match",
    23: "exercise", 24: "challenge", 25: "indoor_skiing", 26: "cardio_training", 27: "indoor_walking",
    28: "e_bike_fitness", 29: "bmx", 30: "casual_walking", 31: "speed_walking", 32: "bike_to_run_transition",
    33: "run_to_bike_transition", 34: "swim_to_bike_transition", 35: "atv", 36: "motocross",
    37: "backcountry", 38: "resort", 39: "rc_drone", 40: "wingsuit", 41: "whitewater", 42: "skate_skiing",
    43: "yoga", 44: "pilates", 45: "indoor_running", 46: "gravel_cycling", 47: "e_bike_mountain",
    48: "commuting", 49: "mixed_surface", 50: "navigate", 51: "track_me", 52: "map", 58: "virtual_activity",
    254: "all",
  ]

  /// Names of the enum `manufacturer` for makers of sports devices, by value.
  static let manufacturerNames: [Int: String] = [
    1: "garmin", 2: "garmin_fr405_antfs", 3: "zephyr", 4: "dayton", 5: "idt", 6: "srm", 7: "quarq",
    8: "ibike", 9: "saris", 10: "spark_hk", 11: "tanita", 12: "echowell", 13: "dynastream_oem",
    14: "nautilus", 15: "dynastream", 16: "timex", 17: "metrigear", 18: "xelic", 19: "beurer",
    20: "cardiosport", 21: "a_and_d", 22: "hmm", 23: "suunto", 24: "thita_elektronik", 25: "gpulse",
    26: "clean_mobile", 27: "pedal_brain", 28: "peaksware", 29: "saxonar", 30: "lemond_fitness",
    31: "dexcom", 32: "wahoo_fitness", 33: "octane_fitness", 34: "archinoetics", 35: "the_hurt_box",
    36: "citizen_systems", 37: "magellan", 38: "osynce", 39: "holux", 40: "concept2", 255: "development",
    260: "zwift", 265: "strava", 294: "coros",
  ]

  /// The name of an enum value, or its number as text when the table does
  /// not hold it.
  static func name(_ value: Double, in table: [Int: String]) -> String {
    guard let n = FITTime.integer(value) else { return Fixed.shortest(value) }
    return table[n] ?? String(n)
  }
}
