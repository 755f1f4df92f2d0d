import Foundation

/// How the delivery tracker paces itself.
public struct TrackerSettings: Sendable, Hashable {
    /// Seconds between two passes over a bulk (the reference SDK's 8 s).
    public var interval: TimeInterval
    /// Passes per bulk while some recipients are still waiting (the reference SDK's 10).
    public var passes: Int
    /// A bulk whose remaining recipients are all DeliveredToNetwork is followed up this many times
    /// slower than `interval`…
    public var followUpFactor: Double
    /// …for at most this many passes beyond `passes`.
    public var followUpPasses: Int
    /// Longest wait after errors (exponential backoff is capped here; a `Retry-After` is honoured as given).
    public var maxBackoff: TimeInterval
    /// How often the ledger is read again for bulks written by another process on the same data directory.
    public var rescanInterval: TimeInterval

    public init(interval: TimeInterval = 8, passes: Int = 10, followUpFactor: Double = 4, followUpPasses: Int = 20,
                maxBackoff: TimeInterval = 300, rescanInterval: TimeInterval = 1) {
        self.interval = interval
        self.passes = passes
        self.followUpFactor = followUpFactor
        self.followUpPasses = followUpPasses
        self.maxBackoff = maxBackoff
        self.rescanInterval = rescanInterval
    }

    public static let `default` = TrackerSettings()

    /// The exponential wait after `errors` consecutive failures (1: one interval, 2: two, 3: four…).
    public func backoff(afterErrors errors: Int) -> TimeInterval {
        let exponent = Double(max(0, min(errors - 1, 30)))
        return min(maxBackoff, interval * pow(2, exponent))
    }
}

/// Where one bulk stands in the tracker's schedule.
public struct TrackedBulk: Sendable, Hashable {
    public var bulkId: String
    /// When its next pass is due; nil: no more passes (all final, or passes spent).
    public var dueAt: Date?
    public var passesDone: Int
    public var passesLeft: Int
    /// Recipients in the pending state (the word the panes use; DeliveredToNetwork is invited, though the
    /// tracker still follows it up).
    public var pendingRecipients: Int
    /// True when every pending recipient is DeliveredToNetwork (followed up slowly).
    public var onlyAtNetwork: Bool
}

/// What one call of `runDuePasses()` did.
public struct TrackerPassReport: Sendable, Hashable {
    /// Bulks asked for delivery infos (each exactly once).
    public var polled: [String] = []
    /// Platform calls made.
    public var platformCalls = 0
    public var changes: [DeliveryChange] = []
    /// Bulks whose call failed, with the error text.
    public var failures: [String: String] = [:]
    /// Set when the pass stopped to back off.
    public var backingOffUntil: Date?

    public init() {}
}
