import Foundation

/// How long frames took to draw into the canvas (the work the UI thread does per frame).
public struct RenderStats: Sendable, Equatable {
    public private(set) var frames = 0
    public private(set) var totalSeconds = 0.0
    public private(set) var maxSeconds = 0.0
    public private(set) var lastSeconds = 0.0

    public init() {}

    mutating func record(_ seconds: Double) {
        frames += 1
        totalSeconds += seconds
        maxSeconds = max(maxSeconds, seconds)
        lastSeconds = seconds
    }

    public var meanMilliseconds: Double { frames == 0 ? 0 : totalSeconds / Double(frames) * 1000 }
    public var maxMilliseconds: Double { maxSeconds * 1000 }
}
