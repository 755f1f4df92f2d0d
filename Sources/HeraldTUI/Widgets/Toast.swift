import Foundation

/// A short message shown for a few seconds.
public struct Toast: Sendable, Hashable {
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
public struct ToastCenter: Sendable, Equatable {
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

/// Draws the toasts stacked at the bottom-right of `area`, newest at the bottom.
public enum ToastView {
    public static func render(into canvas: inout Canvas, area: Rect, toasts: [Toast]) {
        var y = area.maxY - 1
        for toast in toasts.reversed() where y >= area.y {
            let icon = toast.level == .error ? "✗ " : (toast.level == .warning ? "! " : "• ")
            let text = TextFit.truncate(icon + toast.message, to: max(0, min(area.width - 2, 60)))
            let width = TextWidth.of(text) + 2
            let x = area.maxX - width
            let rect = Rect(x: max(area.x, x), y: y, width: min(width, area.width), height: 1)
            canvas.fill(rect, style: Style(toast.role))
            canvas.put(text, x: rect.x + 1, y: y, style: Style(toast.role), clip: rect)
            y -= 1
        }
    }
}
