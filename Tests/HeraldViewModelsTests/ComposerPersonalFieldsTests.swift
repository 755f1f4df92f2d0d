import Foundation
import HeraldTestKit
import HeraldAPI
import HeraldCore
import HeraldEngine
@_spi(Testing) @testable import HeraldServices
import Testing
@testable import HeraldViewModels
import HeraldEmbedded

/// The Composer with a message that uses personal fields: each recipient's own preview and segment count, the field
/// names offered, and whoever lacks a field listed in the confirmation, then left out or sent the fallback given.
@Suite struct ComposerPersonalFieldsTests {
    static let message = "Hi {FIRST_NAME}, team {TEAM} plays Sunday: <>"

    /// Three people (the third without a team) and a Composer on the personal message, selected.
    func setUp() async throws -> (WorkspaceHarness, EffectPump, ComposerViewModel, ToastLog, [Person]) {
        let ws = try await WorkspaceHarness.screens()
        let pump = EffectPump()
        let key = try await ws.workspace.platform.createMessage(ApplicationMessageBody(text: Self.message)).key
        let people = try [("Ana", "Blue", 1), ("Marko", "Red", 2), ("Iva", nil, 3)].map { first, team, n in
            var p = Person(firstName: first, lastName: "Kovač",
                           phones: [LabeledPhone(label: "mobile", number: ws.workspace.parser.parse("+38591555000\(n)"))])
            if let team { p.customFields = ["TEAM": team] }
            return try ws.workspace.contactStore.insert(p)
        }
        _ = try await ws.workspace.templates.message(key: key)     // known to this client, as one it made or read
        let toasts = ToastLog()
        let vm = ComposerViewModel(templates: ws.workspace.templates, invites: ws.workspace.invites,
                                   source: ComposerSource(book: ws.workspace.book, invites: ws.workspace.invites),
                                   context: pump.context(toasts: toasts.board), settings: ComposerSettings(sender: "Herald", senderName: "Ana"))
        vm.load()
        await pump.settle()
        let index = try #require(vm.messages.firstIndex { $0.key == key })
        vm.selectMessage(index)
        vm.setRecipients(people)
        return (ws, pump, vm, toasts, people)
    }

    @Test func eachRecipientHasTheirOwnPreviewAndSegmentsAndTheFieldsAreOffered() async throws {
        let (_, _, vm, _, _) = try await setUp()
        #expect(vm.preview.text == "Hi Ana, team Blue plays Sunday: https://herald.invalid/r/AbCd2345")
        #expect(vm.measurement.segments == 1)
        vm.nextPreview()
        #expect(vm.preview.text == "Hi Marko, team Red plays Sunday: https://herald.invalid/r/AbCd2345")
        vm.nextPreview()
        #expect(vm.preview.text == "Hi Iva, team {TEAM} plays Sunday: https://herald.invalid/r/AbCd2345")
        #expect(vm.preview.missingFields == ["TEAM"])
        #expect(vm.fieldNames.suffix(6) == ["FIRST_NAME", "LAST_NAME", "ORG", "GROUPS", "EMAIL", "TEAM"])
        #expect(vm.sendProblem() == nil)
    }

    @Test func theConfirmationListsWhoLacksAFieldAndWaitsForLeaveOut() async throws {
        let (ws, pump, vm, toasts, people) = try await setUp()
        vm.prepareSend()
        await pump.settle()
        let c = try #require(vm.confirmation)
        #expect(c.missing.map(\.name) == ["Iva Kovač"])
        #expect(c.missing.map(\.field) == ["TEAM"])
        vm.confirmSend()
        #expect(vm.confirmation != nil, "no choice yet: nothing is sent")
        #expect(toasts.texts.last?.contains("o leaves them out, f gives a fallback") == true)
        vm.leaveOutMissing()
        await pump.settle()
        let again = try #require(vm.confirmation)
        #expect(again.destinations == 2)
        #expect(again.leftOut == ["Iva Kovač (no TEAM)"])
        vm.confirmSend()
        await pump.settle()
        let bulkId = try #require(vm.sentBulkIds.first, "\(toasts.texts)")
        let texts = try await ws.engineMessages(bulkId: bulkId).compactMap(\.text)
        #expect(texts.count == 2)
        #expect(texts.contains { $0.hasPrefix("Hi Ana, team Blue plays Sunday: https://herald.invalid/r/") })
        #expect(texts.contains { $0.hasPrefix("Hi Marko, team Red plays Sunday: https://herald.invalid/r/") })
        #expect(try ws.workspace.ledger.invitations(personId: try #require(people[2].id)).isEmpty)
    }

    @Test func aFallbackGivenInTheConfirmationReachesWhoLacksTheField() async throws {
        let (ws, pump, vm, _, _) = try await setUp()
        vm.prepareSend()
        await pump.settle()
        #expect(vm.fieldsWithoutFallback == ["TEAM"])
        vm.setFallback("TEAM", "   ")
        #expect(vm.missingChoice == nil, "never a blank")
        vm.setFallback("TEAM", "Green")
        await pump.settle()
        #expect(vm.confirmation?.destinations == 3)
        #expect(vm.fieldsWithoutFallback.isEmpty)
        vm.confirmSend()
        await pump.settle()
        let bulkId = try #require(vm.sentBulkIds.first)
        let texts = try await ws.engineMessages(bulkId: bulkId).compactMap(\.text)
        #expect(texts.contains { $0.hasPrefix("Hi Iva, team Green plays Sunday: https://herald.invalid/r/") })
        #expect(texts.count == 3)
    }
}
