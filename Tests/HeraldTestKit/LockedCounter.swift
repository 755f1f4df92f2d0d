import Foundation

/// A count shared between tasks.
public final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    public init() {}

    public var count: Int { lock.withLock { value } }
    /// Adds one; answers the new count.
    @discardableResult
    public func next() -> Int { lock.withLock { value += 1; return value } }
}
