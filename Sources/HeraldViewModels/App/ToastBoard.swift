import Foundation
import HeraldCore
import HeraldServices

/// One short message on screen and when it goes away.
nonisolated public struct ToastNote: Sendable, Hashable {
    public var text: String
    public var level: ToastLevel
    public var expiresAt: Date
}

/// The toasts every view-model may post; they expire by themselves (the loop's deadline).
/// Confined to the app loop's thread, like the view-models.
public final class ToastBoard {
    private let clock: any HeraldClock
    public private(set) var notes: [ToastNote] = []
    /// At most this many are kept; the oldest go first.
    public var limit = 3

    public init(clock: any HeraldClock = SystemClock()) { self.clock = clock }

    /// Shows `text` (sanitised) for a few seconds; errors stay longer.
    public func post(_ text: String, level: ToastLevel = .info, seconds: TimeInterval? = nil) {
        let duration = seconds ?? (level == .error ? 8 : 4)
        let clean = TerminalSafeText.sanitize(text)
        notes.append(ToastNote(text: clean, level: level, expiresAt: clock.now().addingTimeInterval(duration)))
        if notes.count > limit { notes.removeFirst(notes.count - limit) }
    }

    /// Drops expired toasts; true when one disappeared.
    @discardableResult
    public func expire(now: Date) -> Bool {
        let before = notes.count
        notes.removeAll { $0.expiresAt <= now }
        return notes.count != before
    }

    /// When the next toast expires, nil when none is shown.
    public var nextDeadline: Date? { notes.map(\.expiresAt).min() }
}
