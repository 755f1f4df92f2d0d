import Foundation
import HeraldAPI
import HeraldEngine
import HeraldServices
import Logging

/// The embedded engine's events as a running terminal follows them: what another process did to the same data folder
/// (`herald sandbox reply` in another shell) is stored with its event in `engine.sqlite`, and read from there: at once
/// when this process stored it (the engine's bell rings), within `interval` when another did.
///
/// Only the events of `types` are handed on: the embedded platform's delivery states and inbox are read by the
/// tracker and the inbox service already; replies and their seen marks have no other way to a running screen.
/// A terminal follows from the newest event when it connected on (the conversations it opens show everything before),
/// so no position is handed on to keep: the workspace's kept position is a server's.
public struct EmbeddedEventSource: PlatformEventSource {
    public static let replyTypes: Set<String> = [PlatformEvent.replyReceivedType, PlatformEvent.conversationSeenType]
    static let log = Logger(label: "herald.embedded.events")

    public let engine: PlatformEngine
    public let applicationKey: String
    public var types: Set<String>
    public var interval: TimeInterval
    /// The newest event when the workspace connected: following starts after it, so nothing stored between connecting
    /// and following is missed. Nil: the newest when following starts.
    public var start: Int64?

    public init(engine: PlatformEngine, applicationKey: String, start: Int64? = nil, types: Set<String> = Self.replyTypes,
                interval: TimeInterval = 0.25) {
        self.engine = engine
        self.applicationKey = applicationKey
        self.start = start
        self.types = types
        self.interval = interval
    }

    public func follow(after _: Int64?, _ handle: @escaping @Sendable (PlatformStreamUpdate) async -> Void) async {
        let bell = engine.bell.listen()
        var failing = false
        var cursor: Int64
        do {
            if let start { cursor = start } else { cursor = try await engine.eventRange(applicationKey: applicationKey).newest }
        } catch {
            // Unreadable now: the first read below that works starts from the newest event.
            cursor = -1
        }
        while !Task.isCancelled {
            do {
                if cursor < 0 { cursor = try await engine.eventRange(applicationKey: applicationKey).newest }
                let batch = try await engine.events(applicationKey: applicationKey, after: cursor, limit: 500)
                for stored in batch {
                    cursor = stored.id
                    guard types.contains(stored.type) else { continue }
                    // One the engine wrote cannot fail to decode short of a newer engine: skipped, not retried forever.
                    let event: PlatformEvent
                    do { event = try HeraldJSON.decode(PlatformEvent.self, from: stored.payload) } catch {
                        Self.log.warning("an engine event could not be read; skipped", metadata: ["id": "\(stored.id)", "type": "\(stored.type)"])
                        continue
                    }
                    await handle(.event(event, id: nil))
                }
                failing = false
                if batch.count == 500 { continue }
            } catch {
                // A busy or briefly locked file: the next turn reads again; a streak of failures is logged once.
                if !failing {
                    Self.log.warning("could not read the engine's events; trying again",
                                     metadata: ["cause": "\(PlatformEngine.failureText(error))"])
                }
                failing = true
            }
            await bell.wait(upTo: interval)
        }
    }
}
