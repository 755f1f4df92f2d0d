import Foundation

/// Where Herald reads the time. Everything that schedules or stamps goes through one,
/// so tests drive time with `ManualClock` instead of sleeping.
public protocol HeraldClock: Sendable {
    func now() -> Date
}

/// The wall clock.
public struct SystemClock: HeraldClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that moves only when told to.
public final class ManualClock: HeraldClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    public init(_ start: Date = Date(timeIntervalSince1970: 1_767_225_600)) { current = start }

    public func now() -> Date { lock.withLock { current } }

    public func advance(by seconds: TimeInterval) {
        lock.withLock { current = current.addingTimeInterval(seconds) }
    }

    public func set(_ date: Date) { lock.withLock { current = date } }
}

extension Date {
    /// Milliseconds since the epoch, as the wire protocols write times; a date beyond what 64 bits hold (or NaN)
    /// gives the nearest end of the range instead of trapping.
    public var epochMilliseconds: Int64 {
        let ms = (timeIntervalSince1970 * 1000).rounded()
        guard !ms.isNaN else { return 0 }
        return Int64(exactly: ms) ?? (ms < 0 ? Int64.min : Int64.max)
    }

    public init(epochMilliseconds ms: Int64) {
        self.init(timeIntervalSince1970: TimeInterval(ms) / 1000)
    }
}
