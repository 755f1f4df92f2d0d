import Foundation
import HeraldAPI
import HeraldEmbedded
import HeraldEngine

/// The events a running terminal on Infobip follows: its own engine's (replies and seen marks, `EmbeddedEventSource`),
/// with Infobip's received SMS pulled every `pullInterval` meanwhile. The engine pulls them on reads too, but a screen
/// left open reads nothing, and a reply must reach it all the same.
public struct InfobipEventSource: PlatformEventSource {
    public let events: EmbeddedEventSource
    public let pullInterval: TimeInterval

    public init(engine: PlatformEngine, applicationKey: String, pullInterval: TimeInterval = 30) {
        events = EmbeddedEventSource(engine: engine, applicationKey: applicationKey)
        self.pullInterval = max(1, pullInterval)
    }

    public func follow(after lastEventId: Int64?, _ handle: @escaping @Sendable (PlatformStreamUpdate) async -> Void) async {
        let (events, engine, interval) = (events, events.engine, pullInterval)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await events.follow(after: lastEventId, handle) }
            group.addTask {
                // The engine's events are followed from the newest on: the first pull waits for that to be settled,
                // so a reply it keeps is handed on, not taken for one from before.
                try? await Task.sleep(nanoseconds: 1_000_000_000)
                while !Task.isCancelled {
                    await engine.pullReplies()
                    try? await Task.sleep(nanoseconds: UInt64(interval * 1e9))
                }
            }
            await group.next()
            group.cancelAll()
        }
    }
}
