import Foundation

/// What `stat(2)` says about a path: one system call, where
/// `FileManager.attributesOfItem` also looks up owner and group names and
/// builds a dictionary. Batch commands ask this once or more per file.
public struct FileStatus: Sendable, Hashable {
  public var isDirectory: Bool
  public var sizeBytes: Int

  /// The status of `path`, nil when it does not exist or cannot be reached.
  public static func of(_ path: String) -> FileStatus? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return FileStatus(isDirectory: (info.st_mode & S_IFMT) == S_IFDIR, sizeBytes: Int(info.st_size))
  }

  /// The size of `path` in bytes, 0 when it cannot be read.
  public static func size(_ path: String) -> Int { of(path)?.sizeBytes ?? 0 }
}
