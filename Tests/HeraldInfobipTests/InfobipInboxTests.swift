import Foundation
import HeraldAPI
import HeraldCore
import HeraldServices
import HeraldTestKit
import Testing
@testable import HeraldInfobip

/// The inbox of an Infobip workspace, read from the Mobile Messaging stand-in as the public SDKs do.
@Suite struct InfobipInboxTests {
    static let now = Int64(Date().timeIntervalSince1970 * 1000)

    static func fill(_ state: StandInState, user: String) async {
        await state.addInbox(user: user, payloadJSON: """
            {"messageId": "plain", "aps": {"alert": {"title": "Hello", "body": "No seen flag at all"}},
             "internalData": {"sendDateTime": \(now - 60_000), "inbox": {"topic": "news"}}}
            """)
        await state.addInbox(user: user, payloadJSON: """
            {"messageId": "quiet", "aps": {"content-available": 1},
             "internalData": {"sendDateTime": \(now - 30_000), "inbox": {"topic": "news", "seen": false},
                              "silent": {"title": "Psst", "body": "A silent one"}}}
            """)
    }

    @Test func seenLessAndSilentMessagesAreReadAndMarkedSeenWithTheApplicationCode() async throws {
        let h = try await InfobipHarness()
        await Self.fill(h.state, user: "Ana.K")
        let page = try await h.workspace.inbox.fetch(user: "Ana.K")
        #expect(page.messages.map(\.messageId) == ["quiet", "plain"])
        #expect(page.messages.map(\.title) == ["Psst", "Hello"])
        #expect(page.counts.unread == 2)
        let fetches = await h.state.requests(to: "/mobile/1/user/Ana.K/inbox/apns/messages")
        #expect(fetches.first?.headers["authorization"] == "App stand-in-app-code")
        // The code's hash, as the SDKs send it, never the code itself in that header.
        #expect(fetches.first?.headers["applicationcode"] == MobileMessagingTransport.codeHash("stand-in-app-code"))
        #expect(MobileMessagingTransport.codeHash("stand-in-app-code").count == 10)

        _ = try await h.workspace.inbox.markSeen(user: "Ana.K", messageIds: ["plain"])
        let marks = await h.state.seen
        #expect(marks.map(\.messageId) == ["plain"])
        // Seconds between seeing and reporting: reported at once, so 0 (not the minute since it was sent).
        #expect(marks.first?.timestampDelta == 0)
        let again = try await h.workspace.inbox.fetch(user: "Ana.K")
        #expect(again.counts.unread == 1)
    }

    @Test func aNewBaseURLIsFollowedAndRememberedForTheNextRun() async throws {
        let moved = StandInState()
        await Self.fill(moved, user: "u1")
        let (movedURL, movedServer) = try await InfobipStandIn.start(state: moved)
        defer { movedServer.cancel() }
        let first = StandInState()
        await first.setMoveInboxTo(movedURL.absoluteString)
        let h = try await InfobipHarness(state: first)
        _ = try await h.workspace.inbox.fetch(user: "u1")
        let page = try await h.workspace.inbox.fetch(user: "u1")
        #expect(page.messages.count == 2)
        #expect(await first.requests(to: "/mobile/").count == 1)
        #expect(await moved.requests(to: "/mobile/").count == 1)
        let kept = try String(contentsOf: h.folder.appendingPathComponent(InfobipPlatform.mobileBaseURLFileName), encoding: .utf8)
        #expect(kept.split(separator: "\n").first.map(String.init) == movedURL.absoluteString)
    }

    @Test func aMovedHostThatDoesNotAnswerFallsBackAndAMoveIsKeptForADay() async throws {
        let state = StandInState()
        await Self.fill(state, user: "u1")
        let (url, server) = try await InfobipStandIn.start(state: state)
        defer { server.cancel() }
        let tempDir = try TempDir("move")
        let dir = tempDir.url
        let memory = dir.appendingPathComponent(InfobipPlatform.mobileBaseURLFileName)
        // Infobip moves the application to a host that then does not answer (port 9 on loopback).
        await state.setMoveInboxTo("http://127.0.0.1:9")
        let clock = ManualClock(Date())
        let transport = MobileMessagingTransport(baseURL: url, applicationCode: state.applicationCode, memory: memory,
                                                 clock: { clock.now() })
        let fetch = try FetchInbox(credential: .app(state.applicationCode), externalUserId: "u1", limit: 5).request()
        #expect(try await transport.send(fetch).status == 200)
        #expect(await transport.baseURL.absoluteString == "http://127.0.0.1:9")
        await state.setMoveInboxTo(nil)
        #expect(try await transport.send(fetch).status == 200, "answered by the configured host")
        #expect(await transport.baseURL == url)
        #expect(!FileManager.default.fileExists(atPath: memory.path), "the dead host is forgotten")
        // A move kept more than a day ago is not used: the configured base URL is asked again.
        let moved = StandInState()
        let (movedURL, movedServer) = try await InfobipStandIn.start(state: moved)
        defer { movedServer.cancel() }
        try Data((movedURL.absoluteString + "\n" + String(Int(clock.now().timeIntervalSince1970 - 90_000)) + "\n").utf8).write(to: memory)
        #expect(await MobileMessagingTransport(baseURL: url, applicationCode: state.applicationCode, memory: memory,
                                               clock: { clock.now() }).baseURL == url)
        try Data((movedURL.absoluteString + "\n" + String(Int(clock.now().timeIntervalSince1970 - 600)) + "\n").utf8).write(to: memory)
        let recent = MobileMessagingTransport(baseURL: url, applicationCode: state.applicationCode, memory: memory, clock: { clock.now() })
        #expect(await recent.baseURL == movedURL)
        clock.advance(by: 86_400)
        _ = try await recent.send(fetch)
        #expect(await recent.baseURL == url, "a day later the configured base URL is asked again")
    }

    @Test func withoutAnApplicationCodeTheInboxSaysWhatToSet() async throws {
        let h = try await InfobipHarness(applicationCode: nil)
        do {
            _ = try await h.workspace.inbox.fetch(user: "x")
            Issue.record("the inbox was read without an application code")
        } catch {
            #expect("\(error)".contains("application_code"))
        }
        #expect(await h.state.requests(to: "/mobile/").isEmpty)
    }
}
