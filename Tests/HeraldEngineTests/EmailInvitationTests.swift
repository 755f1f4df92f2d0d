import Foundation
import HeraldAPI
import HeraldCore
import HeraldTestKit
import Testing
@testable import HeraldEngine

/// A mailer that keeps what it is handed and answers as told.
final class RecordingMailer: Mailer, @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [EmailMessage] = []
    let answer: MailHandOver

    init(answer: MailHandOver = .accepted) { self.answer = answer }

    var handed: [EmailMessage] { lock.withLock { kept } }
    var handOverLease: TimeInterval { 60 }

    func send(_ message: EmailMessage) async -> MailHandOver {
        lock.withLock { kept.append(message) }
        return answer
    }
}

/// A mailer whose hand-overs take 40 s each, within their 60 s lease, but three of them take longer than one lease; during
/// the third, another carrier pass runs, as a second process or the tracker's catch-up would.
final class SlowMailer: Mailer, @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [String] = []
    let clock: ManualClock
    var meanwhile: (@Sendable () async -> Void)?

    init(clock: ManualClock) { self.clock = clock }

    var handed: [String] { lock.withLock { kept } }
    var handOverLease: TimeInterval { 60 }

    func send(_ message: EmailMessage) async -> MailHandOver {
        let third: Bool = lock.withLock { kept.append(message.to[0].address); return kept.count == 3 }
        clock.advance(by: 40)
        if third, let meanwhile { await meanwhile() }
        return .accepted
    }
}

/// Email invitations on the engine: the same request as an SMS with `email` set, each message handed to the mailer at
/// most once, its answer stored as a delivery state, an interrupted hand-over uncertain and never handed again.
@Suite struct EmailInvitationTests {
    func body(_ h: EngineHarness, _ addresses: [String], ids: [String]? = nil, sendAt: Date? = nil) -> SendInvitationBody {
        let destinations = addresses.enumerated().map { i, a in
            SendInvitationBody.Destination(address: a, messageId: ids?[i] ?? "mail-\(i)", clientData: ["Ana", "Ivo"])
        }
        return SendInvitationBody(messageKey: h.creds.messageKey, sender: "Ana Horvat <ana@example.com>", destinations: destinations,
                                  sendAt: sendAt.map(WireTime.text),
                                  email: .init(subject: "Dođi na Herald", text: "Bok {RECEIVER_NAME}, {SENDER_NAME} te zove: <>"))
    }

    @Test func eachEmailIsHandedOnceWithItsOwnLinkAndItsAnswerIsItsState() async throws {
        let mailer = RecordingMailer()
        let h = try await EngineHarness.make(mailer: mailer)
        defer { h.cleanUp() }
        let sent = try await h.call(SendInvitation(secret: h.creds.secret,
                                                   body: body(h, ["ivo@example.org", "mia@example.org", "not an address"])))
            .sendSmsResponse
        #expect(sent.responses.map(\.status) == [.deliveredToNetwork, .deliveredToNetwork, .rejected])
        #expect(sent.responses[2].reason?.contains("is not a usable email address") == true, "\(sent.responses[2])")
        #expect(sent.responses.allSatisfy { $0.price == 0 })
        let handed = mailer.handed
        #expect(handed.map { $0.to[0].address } == ["ivo@example.org", "mia@example.org"])
        #expect(handed.allSatisfy { $0.from.description == "Ana Horvat <ana@example.com>" && $0.subject == "Dođi na Herald" })
        #expect(handed[0].messageId == "mail-0@example.com")
        let body0 = handed[0].body
        #expect(body0.hasPrefix("Bok Ivo, Ana te zove: https://"), "\(body0)")
        #expect(body0 != handed[1].body, "each email has its own link")

        // A replay of the same messageIds hands nothing over again and answers what happened.
        let replay = try await h.call(SendInvitation(secret: h.creds.secret, body: body(h, ["ivo@example.org", "mia@example.org"])))
            .sendSmsResponse
        #expect(replay.bulkId == sent.bulkId)
        #expect(mailer.handed.count == 2)
        _ = try await h.engine.runCarrierPass()
        #expect(mailer.handed.count == 2)
        let infos = try await h.call(GetDeliveryInfos(secret: h.creds.secret, bulkId: sent.bulkId)).deliveryInfoList.deliveryInfo
        #expect(infos.map(\.deliveryStatus) == [.deliveredToNetwork, .deliveredToNetwork], "a refused address is answered, not tracked")
        #expect(infos.first?.address == "ivo@example.org")
    }

    @Test func aHandOverCutShortIsUncertainAndNeverHandedAgain() async throws {
        let mailer = RecordingMailer()
        var config = EngineConfig()
        config.handOverOnSend = false
        let h = try await EngineHarness.make(config: config, mailer: mailer)
        defer { h.cleanUp() }
        let sent = try await h.call(SendInvitation(secret: h.creds.secret, body: body(h, ["ivo@example.org"]))).sendSmsResponse
        // A process claimed it and died during the hand-over: its lease ran out.
        try await h.engine.store.write { db in
            _ = try db.execute("UPDATE sent SET outbox = 2, nextCheckAt = ? WHERE bulkId = ?",
                               [h.clock.now().epochMilliseconds - 1, sent.bulkId])
        }
        _ = try await h.engine.runCarrierPass()
        #expect(mailer.handed.isEmpty, "the mail system may have it: never handed over again on its own")
        let info = try #require(try await h.call(GetDeliveryInfos(secret: h.creds.secret, bulkId: sent.bulkId))
            .deliveryInfoList.deliveryInfo.first)
        #expect(info.deliveryStatus == .deliveryUncertain)
        #expect(info.reason == PlatformEngine.interruptedMailReason)
        _ = try await h.engine.runCarrierPass()
        #expect(mailer.handed.isEmpty)
    }

    /// Each email is claimed when its own hand-over starts: a pass that runs while the third is handed over finds its
    /// lease still running (not one taken with the first, run out), so every one is sent once and said sent.
    @Test func eachEmailIsClaimedWhenItsHandOverStartsSoASlowOneMakesNoOtherUncertain() async throws {
        var config = EngineConfig()
        config.handOverOnSend = false
        let clock = ManualClock()
        let mailer = SlowMailer(clock: clock)
        let h = try await EngineHarness.make(config: config, mailer: mailer, clock: clock)
        defer { h.cleanUp() }
        let engine = h.engine
        mailer.meanwhile = { _ = try? await engine.runCarrierPass() }
        let sent = try await h.call(SendInvitation(secret: h.creds.secret,
                                                   body: body(h, ["ivo@example.org", "mia@example.org", "lea@example.org"])))
            .sendSmsResponse
        _ = try await h.engine.runCarrierPass()
        #expect(mailer.handed.sorted() == ["ivo@example.org", "lea@example.org", "mia@example.org"])
        let infos = try await h.call(GetDeliveryInfos(secret: h.creds.secret, bulkId: sent.bulkId)).deliveryInfoList.deliveryInfo
        #expect(infos.map(\.deliveryStatus) == [.deliveredToNetwork, .deliveredToNetwork, .deliveredToNetwork], "\(infos)")
    }

    @Test func aRefusalIsAFailureWithTheMailersWordsAndAnUnknownAnswerIsUncertain() async throws {
        let refusing = RecordingMailer(answer: .refused(reason: "SMTP 550: no such user", permanent: true))
        let h = try await EngineHarness.make(mailer: refusing)
        defer { h.cleanUp() }
        let refused = try await h.call(SendInvitation(secret: h.creds.secret, body: body(h, ["nobody@example.org"]))).sendSmsResponse
        let info = try #require(try await h.call(GetDeliveryInfos(secret: h.creds.secret, bulkId: refused.bulkId))
            .deliveryInfoList.deliveryInfo.first)
        #expect(info.deliveryStatus == .deliveryImpossible && info.reason == "SMTP 550: no such user" && info.permanent == true)

        let lost = RecordingMailer(answer: .unknown(reason: "the SMTP server closed the connection"))
        let h2 = try await EngineHarness.make(mailer: lost)
        defer { h2.cleanUp() }
        let sent = try await h2.call(SendInvitation(secret: h2.creds.secret, body: body(h2, ["ivo@example.org"]))).sendSmsResponse
        #expect(sent.responses.first?.status == .deliveryUncertain)
        #expect(sent.responses.first?.reason?.hasPrefix("the SMTP server closed the connection: it may have been sent") == true)
    }

    @Test func aHeldEmailLeavesAtItsTimeAndAPlatformWithoutMailRefusesEmail() async throws {
        let mailer = RecordingMailer()
        let h = try await EngineHarness.make(mailer: mailer)
        defer { h.cleanUp() }
        let at = h.clock.now().addingTimeInterval(10)
        let held = try await h.call(SendInvitation(secret: h.creds.secret, body: body(h, ["ivo@example.org"], sendAt: at))).sendSmsResponse
        #expect(held.responses.first?.status == .scheduled)
        _ = try await h.engine.runCarrierPass()
        #expect(mailer.handed.isEmpty)
        h.clock.advance(by: 10)
        _ = try await h.engine.runCarrierPass()
        #expect(mailer.handed.count == 1)

        let plain = try await EngineHarness.make()
        defer { plain.cleanUp() }
        do {
            _ = try await plain.call(SendInvitation(secret: plain.creds.secret, body: body(plain, ["ivo@example.org"])))
            Issue.record("a platform without a mailer accepted an email")
        } catch {
            guard case .badRequest(let text, let fields) = error else { Issue.record("\(error)"); return }
            #expect(text == "this platform sends no email" && fields["email"] != nil)
        }
        // A header that would smuggle another one in is refused before anything is stored.
        var sneaky = body(h, ["ivo@example.org"], ids: ["sneaky"])
        sneaky.email?.subject = "Hi\r\nBcc: all@example.org"
        await #expect(throws: APIError.self) { try await h.call(SendInvitation(secret: h.creds.secret, body: sneaky)) }
        #expect(mailer.handed.count == 1)
    }
}
