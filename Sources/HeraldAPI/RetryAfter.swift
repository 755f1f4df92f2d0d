import Foundation

/// A peer's `Retry-After` (RFC 9110 10.2.3), read once for every reader: whole seconds or an HTTP date, made finite and
/// at most `maxSeconds`. A carrier or server that answers `1e20`, `inf` or a date in the year 9999 is a peer to distrust,
/// not a reason to stop: an unclamped value traps where it becomes an `Int`, or parks a sender for ever.
public enum RetryAfter {
    /// The longest wait any `Retry-After` can ask of Herald.
    public static let maxSeconds: TimeInterval = 3600

    /// Seconds to wait, in `0...maxSeconds`; nil when absent or unreadable (`nan`, `soon`), so the caller's own backoff applies.
    public static func seconds(_ value: String?, now: Date = Date()) -> TimeInterval? {
        guard let text = value?.trimmingCharacters(in: .whitespaces), !text.isEmpty, text.count <= 64 else { return nil }
        if let seconds = Double(text) {
            // "-5" asks for no wait at all; "nan" for nothing readable.
            return seconds.isNaN ? nil : clamped(seconds)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return clamped(date.timeIntervalSince(now)) }
        }
        return nil
    }

    /// `seconds` within `0...maxSeconds` (NaN as 0): for a wait that did not come through `seconds(_:now:)`.
    public static func clamped(_ seconds: TimeInterval) -> TimeInterval {
        guard !seconds.isNaN else { return 0 }
        return min(max(seconds, 0), maxSeconds)
    }

    /// Whole seconds, rounded up, for a message ("retry in 3600 s"): never traps, whatever the wait.
    public static func wholeSeconds(_ seconds: TimeInterval) -> Int { Int(clamped(seconds).rounded(.up)) }
}
