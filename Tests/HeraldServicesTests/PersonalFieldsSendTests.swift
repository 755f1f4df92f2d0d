import Foundation
import HeraldAPI
import HeraldCore
import HeraldTestKit
import Testing
@_spi(Testing) @testable import HeraldServices

/// Personal fields in a send: each recipient's own text (their first name, their team) filled on this side and carried
/// as the destination's text, the link and client fields left to the platform; whoever lacks a field is listed before
/// anything is sent, then left out or sent the fallback the sender gave — never a blank.
@Suite struct PersonalFieldsSendTests {
    static let message = "Hi {FIRST_NAME}, team {TEAM} plays Sunday, says {SENDER_NAME}: <>"

    /// A message with personal fields, made on the platform.
    static func create(_ text: String, in h: WorkspaceHarness) async throws -> String {
        try await h.workspace.platform.createMessage(ApplicationMessageBody(text: text)).key
    }

    /// Three people, the third without a team; the message in the workspace.
    static func setUp() async throws -> (WorkspaceHarness, [Person], String) {
        let h = try await WorkspaceHarness()
        let key = try await Self.create(message, in: h)
        let people = try [("Ana", "Blue"), ("Marko", "Red"), ("Iva", nil)].enumerated().map { i, p in
            var person = Person(firstName: p.0, lastName: "Kovač",
                                phones: [LabeledPhone(label: "mobile", number: WorkspaceHarness.hr.parse(WorkspaceHarness.mobile(i)))])
            if let team = p.1 { person.customFields = ["TEAM": team] }
            return try h.workspace.contactStore.insert(person)
        }
        return (h, people, key)
    }

    @Test func aSendWithoutAChoiceListsWhoLacksAFieldAndSendsNothing() async throws {
        let (h, people, key) = try await Self.setUp()
        let preview = try await h.workspace.invites.preview(people.map(InviteTarget.person), options: InviteOptions(messageKey: key),
                                                            link: "https://herald.invalid/r/XXXXXXXX")
        #expect(preview.personalFields == ["FIRST_NAME", "TEAM"])
        #expect(preview.missing == [MissingField(address: WorkspaceHarness.mobile(2), personId: people[2].id, name: "Iva Kovač", field: "TEAM")])
        #expect(preview.recipients.map(\.text) == [
            "Hi Ana, team Blue plays Sunday, says Ana: https://herald.invalid/r/XXXXXXXX",
            "Hi Marko, team Red plays Sunday, says Ana: https://herald.invalid/r/XXXXXXXX",
            "Hi Iva, team {TEAM} plays Sunday, says Ana: https://herald.invalid/r/XXXXXXXX",
        ])
        #expect(preview.recipients.map(\.missingFields) == [[], [], ["TEAM"]])
        do {
            _ = try await h.workspace.invites.invite(people: people, options: InviteOptions(messageKey: key))
            Issue.record("a send with a blank must wait for a choice")
        } catch InviteError.missingFields(let list) {
            #expect(list.map(\.field) == ["TEAM"])
            #expect(InviteError.missingFields(list).userMessage.contains("Iva Kovač (TEAM)"))
        }
        #expect(try h.workspace.ledger.queuedCount() == 0)
        #expect(try h.workspace.ledger.bulks().isEmpty, "nothing was queued or sent")
    }

    @Test func leftOutTheTwoOthersGetTheirOwnTextByteForByteInTheLedgerAndTheEngine() async throws {
        let (h, people, key) = try await Self.setUp()
        var options = InviteOptions(messageKey: key)
        options.missing = .leaveOut
        let result = try await h.workspace.invites.invite(people: people, options: options)
        #expect(result.recipients.map(\.personId) == [people[0].id, people[1].id])
        #expect(result.skipped.map(\.personId) == [people[2].id])
        #expect(result.skipped.first?.reason == "no value for TEAM and no fallback (left out)")
        let bulkId = try #require(result.bulkId)
        let rows = try h.workspace.ledger.recipients(ofBulk: bulkId)
        let engine = try await h.engineMessages(bulkId: bulkId)
        let expected = try engine.map { m in
            let code = try #require(m.linkCode)
            return m.address == String(WorkspaceHarness.mobile(0).dropFirst())
                ? "Hi Ana, team Blue plays Sunday, says Ana: https://herald.invalid/r/\(code)"
                : "Hi Marko, team Red plays Sunday, says Ana: https://herald.invalid/r/\(code)"
        }
        #expect(engine.map(\.text) == expected)
        #expect(Set(rows.compactMap(\.text)) == Set(expected.compactMap { $0 }))
        #expect(rows.count == 2 && rows.allSatisfy { $0.text != nil })
        // Byte for byte: the ledger's text of each number is the engine's.
        for row in rows {
            let stored = try #require(engine.first { "+" + $0.address == row.msisdn })
            #expect(Array(row.text?.utf8 ?? "".utf8) == Array(stored.text?.utf8 ?? "".utf8))
        }
    }

    @Test func aFallbackTheSenderGivesReachesOnlyWhoLacksTheField() async throws {
        let (h, people, key) = try await Self.setUp()
        var options = InviteOptions(messageKey: key)
        options.missing = .fallback(["TEAM": "Green"])
        let result = try await h.workspace.invites.invite(people: people, options: options)
        #expect(result.recipients.count == 3 && result.skipped.isEmpty)
        let bulkId = try #require(result.bulkId)
        let engine = try await h.engineMessages(bulkId: bulkId)
        let iva = try #require(engine.first { $0.address == String(WorkspaceHarness.mobile(2).dropFirst()) })
        let ivaCode = try #require(iva.linkCode)
        #expect(iva.text == "Hi Iva, team Green plays Sunday, says Ana: https://herald.invalid/r/\(ivaCode)")
        let ana = try #require(engine.first { $0.address == String(WorkspaceHarness.mobile(0).dropFirst()) })
        #expect(ana.text?.hasPrefix("Hi Ana, team Blue plays") == true)
        let rows = try h.workspace.ledger.recipients(ofBulk: bulkId)
        #expect(rows.first { $0.msisdn == WorkspaceHarness.mobile(2) }?.text == iva.text)

        // A fallback choice that gives no text for the missing field refuses the send.
        var none = InviteOptions(messageKey: key, policy: ResendPolicy(allowResendToInvited: true))
        none.missing = .fallback(["FIRST_NAME": "there"])
        await #expect(throws: InviteError.noFallback("TEAM")) {
            _ = try await h.workspace.invites.invite(people: people, options: none)
        }
    }

    @Test func aTemplateFallbackFillsAnEmptyFieldAndAFieldNobodyHasIsRefusedByName() async throws {
        let (h, people, _) = try await Self.setUp()
        let fallback = try await Self.create("Hi {FIRST_NAME}, team {TEAM|Free agents}: <>", in: h)
        let sent = try await h.workspace.invites.invite(people: people, options: InviteOptions(messageKey: fallback))
        let sentBulk = try #require(sent.bulkId)
        let engine = try await h.engineMessages(bulkId: sentBulk)
        #expect(engine.compactMap(\.text).contains { $0.hasPrefix("Hi Iva, team Free agents: https://herald.invalid/r/") })

        let typo = try await Self.create("Hi {FIRST_NAME}, shirt {SHIRT_SIZE}: <>", in: h)
        do {
            _ = try await h.workspace.invites.preview(people.map(InviteTarget.person), options: InviteOptions(messageKey: typo), link: "L")
            Issue.record("a field nobody has must be refused")
        } catch let error as InviteError {
            #expect(error == .fieldNobodyHas("SHIRT_SIZE", known: ["FIRST_NAME", "LAST_NAME", "ORG", "GROUPS", "EMAIL", "TEAM"]))
            #expect(error.userMessage.hasPrefix("the message uses {SHIRT_SIZE} and no recipient has a field SHIRT_SIZE"))
        }
        #expect(try h.workspace.ledger.queuedCount() == 0)
    }

    @Test func anEmailInvitationCarriesEachPersonsOwnFieldsAndLeavesOutWhoLacksOne() async throws {
        var config = WorkspaceHarness.config()
        config.emailFrom = "ana@example.com"
        let h = try await WorkspaceHarness(config: config)
        let key = try await Self.create("Hi {FIRST_NAME}, team {TEAM} plays Sunday: <>", in: h)
        var ivo = Person(firstName: "Ivo", lastName: "Kos", emails: [LabeledEmail(label: nil, address: "ivo@example.org")])
        ivo.customFields = ["TEAM": "Blue"]
        let people = try [ivo, Person(firstName: "Eva", lastName: "Kos", emails: [LabeledEmail(label: nil, address: "eva@example.org")])]
            .map { try h.workspace.contactStore.insert($0) }
        // Without a choice, the one without a team is named and nothing is sent.
        await #expect(throws: InviteError.self) {
            _ = try await h.workspace.invites.invite(people: people, options: InviteOptions(messageKey: key, email: EmailOptions()))
        }
        #expect(try h.workspace.ledger.bulks().isEmpty)
        var options = InviteOptions(messageKey: key, email: EmailOptions())
        options.missing = .leaveOut
        let result = try await h.workspace.invites.invite(people: people, options: options)
        #expect(result.recipients.map(\.personId) == [people[0].id])
        #expect(result.skipped.map(\.personId) == [people[1].id])
        let bulkId = try #require(result.bulkId)
        let sent = try #require(try await h.engineMessages(bulkId: bulkId).first)
        let code = try #require(sent.linkCode)
        #expect(sent.text == "Hi Ivo, team Blue plays Sunday: https://herald.invalid/r/\(code)")
        #expect(try h.workspace.ledger.recipients(ofBulk: bulkId).map(\.text) == [sent.text])
    }

    @Test func personalTextKeepsTheLinkAndClientFieldsAndDropsTheGapOfAnEmptyFallback() {
        let t = MessageTemplate(text: "Hi {FIRST_NAME|}, {RECEIVER_NAME|you} of {ORG}: <>")
        let r = PersonalText.render(t, values: ["ORG": "Acme\u{1B}[31m"], fallbacks: [:])
        #expect(r.text == "Hi, {RECEIVER_NAME|you} of Acme[31m: <>" || r.text == "Hi, {RECEIVER_NAME|you} of Acme: <>", "\(r.text)")
        #expect(r.missing.isEmpty)
        let m = PersonalText.render(t, values: [:], fallbacks: [:])
        #expect(m.missing == ["ORG"])
        #expect(m.text == "Hi, {RECEIVER_NAME|you} of {ORG}: <>")
    }
}
