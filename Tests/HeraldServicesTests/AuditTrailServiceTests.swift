import Foundation
import HeraldAPI
import HeraldCore
import HeraldEngine
import HeraldTestKit
import Testing
@testable import HeraldServices

/// The Services call a bulk's detail uses: a resend from Deliveries is recorded as a resend of the bulk it came from,
/// so the first bulk's history tells both, oldest first, under this terminal's sender name; lines are terminal-safe.
@Suite struct AuditTrailServiceTests {
    @Test func aBulksHistoryHoldsItsSendAndItsResendOldestFirst() async throws {
        var engine = EngineConfig()
        engine.localActor = "Ana Horvat"
        let h = try await WorkspaceHarness(engine: engine)
        let ws = h.workspace
        let first = try #require(try await ws.invites.invite(numbers: ["+385911000061", "+385911000062"]).bulkIds.first)
        h.clock.advance(by: 60)
        // Deliveries' resend: InviteOptions.resendOf names the bulk (the numbers are what the resend picked).
        let again = try #require(try await ws.invites.invite(numbers: ["+385911000063"], options: InviteOptions(resendOf: first)).bulkIds.first)
        let history = try await ws.audit.history(ofBulk: first)
        #expect(history.map(\.action) == ["send", "resend"], "\(history)")
        #expect(history.allSatisfy { $0.actor == "Ana Horvat" && $0.role == "local" && $0.address == "local" })
        #expect(history.last?.bulkId == again && history.last?.subject == first)
        let line = AuditTrail.line(try #require(history.last), timeZone: TimeZone(identifier: "UTC") ?? .gmt)
        #expect(line.hasSuffix("Ana Horvat (local)  resend  1 recipient, sender Herald, again for bulk \(first)"), "\(line)")
        // Text from the platform cannot steer the terminal.
        let hostile = AuditEntry(id: 1, at: "2026-11-28T10:02:00.000Z", actor: "eve\u{1B}[2J", keyId: nil, role: "sender",
                                 address: "10.0.0.1", action: "send", bulkId: "b", subject: nil, what: "x\u{9B}31m")
        let shown = AuditTrail.line(hostile, timeZone: TimeZone(identifier: "UTC") ?? .gmt)
        #expect(!shown.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B }, "\(shown.debugDescription)")
        #expect(shown.hasPrefix("2026-11-28 10:02  eve"), "\(shown)")
    }
}
