import Foundation

/// Marks code that runs on the UI thread (render, key handling, folding events) and records any
/// storage access made from it. The local store reports every read and write here; the app loop
/// runs inside `run`, and tests run view-models inside it to prove they never touch SQLite there.
///
/// The mark is a task-local value: work handed to an effect (a detached task) does not carry it, so
/// only storage touched synchronously by UI code is recorded.
public final class UIThreadGuard: @unchecked Sendable {
    @TaskLocal private static var current: UIThreadGuard?

    private let lock = NSLock()
    private var touches: [String] = []
    private let onTouch: (@Sendable (String) -> Void)?

    /// - Parameter onTouch: also called for each access (the app logs it).
    public init(onTouch: (@Sendable (String) -> Void)? = nil) {
        self.onTouch = onTouch
    }

    /// Storage accesses recorded so far ("read", "write", "search"…).
    public var violations: [String] { lock.withLock { touches } }

    /// Runs `body` as UI code.
    public func run<T>(_ body: () throws -> T) rethrows -> T {
        try Self.$current.withValue(self) { try body() }
    }

    /// Called by the store on every access; records it when the caller is UI code.
    public static func storageTouched(_ what: String) {
        guard let guardian = current else { return }
        guardian.lock.withLock { guardian.touches.append(what) }
        guardian.onTouch?(what)
    }
}
