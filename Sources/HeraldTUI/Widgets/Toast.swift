import Foundation

/// A short message shown for a few seconds.
nonisolated public struct Toast: Sendable, Hashable {
    public enum Level: String, Sendable, Hashable { case info, warning, error }
    public var message: String
    public var level: Level
    public var expiresAt: Date
    public init(_ message: String, level: Level = .info, expiresAt: Date) {
        self.message = message; self.level = level; self.expiresAt = expiresAt
    }

    var role: Role {
        switch level {
        case .info: return .toastInfo
        case .warning: return .toastWarning
        case .error: return .toastError
        }
    }
}

/// The toasts on screen; time is passed in, so tests drive it with a manual clock.
nonisolated public struct ToastCenter: Sendable, Equatable {
    public private(set) var toasts: [Toast] = []
    /// At most this many are kept; older ones go first.
    public var limit: Int

    public init(limit: Int = 3) { self.limit = limit }

    /// Shows `message` until `now + seconds` (errors default to longer).
    public mutating func post(_ message: String, level: Toast.Level = .info, now: Date, seconds: TimeInterval? = nil) {
        let duration = seconds ?? (level == .error ? 8 : 4)
        toasts.append(Toast(message, level: level, expiresAt: now.addingTimeInterval(duration)))
        if toasts.count > limit { toasts.removeFirst(toasts.count - limit) }
    }

    /// Drops expired toasts; returns true when something disappeared (the screen is dirty).
    @discardableResult
    public mutating func expire(now: Date) -> Bool {
        let before = toasts.count
        toasts.removeAll { $0.expiresAt <= now }
        return toasts.count != before
    }

    /// When the next toast expires (the loop's next timer), nil when none is shown.
    public var nextDeadline: Date? { toasts.map(\.expiresAt).min() }
}

/// Draws the toasts stacked at the bottom-right of `area` (inside the pane's border), newest at the bottom.
/// A long message wraps to the width instead of losing its end (up to `maxLines` lines, the last one
/// truncated visibly beyond that).
nonisolated public enum ToastView {
    static let maxLines = 4

    public static func render(into canvas: inout Canvas, area: Rect, toasts: [Toast]) {
        let textWidth = max(0, min(area.width - 2, 72))
        guard textWidth > 0 else { return }
        var bottom = area.maxY - 1
        for toast in toasts.reversed() where bottom >= area.y {
            let icon = toast.level == .error ? "✗ " : (toast.level == .warning ? "! " : "• ")
            var lines = WrappedText.lines(icon + toast.message, width: textWidth)
            if lines.count > maxLines {
                lines = Array(lines.prefix(maxLines - 1)) + [TextFit.truncate(lines[(maxLines - 1)...].joined(separator: " "), to: textWidth)]
            }
            let width = (lines.map { TextWidth.of($0) }.max() ?? 0) + 2
            let top = max(area.y, bottom - lines.count + 1)
            let rect = Rect(x: max(area.x, area.maxX - width), y: top, width: min(width, area.width), height: bottom - top + 1)
            canvas.fill(rect, style: Style(toast.role))
            for (i, line) in lines.suffix(rect.height).enumerated() {
                canvas.put(line, x: rect.x + 1, y: top + i, style: Style(toast.role), clip: rect)
            }
            bottom = top - 1
        }
    }
}
