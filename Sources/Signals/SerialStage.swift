import Foundation
import Synchronization

/// A stateful step of a pipeline on a thread of its own: work submitted
/// runs in order on the state, while the submitter goes on with its own;
/// at most `depth` items wait, so the memory they hold stays bounded.
final class SerialStage<State: Sendable>: Sendable {
  private let state: Mutex<State>
  private let queue: DispatchQueue
  private let room: DispatchSemaphore

  init(_ initial: State, label: String, depth: Int = 4) {
    state = Mutex(initial)
    queue = DispatchQueue(label: label)
    room = DispatchSemaphore(value: depth)
  }

  /// Runs `body` on the state after everything submitted before it.
  func submit(_ body: @escaping @Sendable (inout State) -> Void) {
    room.wait()
    queue.async {
      self.state.withLock { body(&$0) }
      self.room.signal()
    }
  }

  /// The state once everything submitted has run.
  func finish() -> State {
    queue.sync {}
    return state.withLock { $0 }
  }
}
