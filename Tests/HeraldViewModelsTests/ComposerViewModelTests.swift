import Foundation
import HeraldTestKit
import HeraldAPI
import HeraldCore
import HeraldEngine
@testable import HeraldServices
import HeraldStore
import Testing
@testable import HeraldViewModels
import HeraldEmbedded

@Suite struct ComposerViewModelTests {
    func person(_ ws: WorkspaceHarness, _ first: String, _ number: String?, email: String? = nil) throws -> Person {
        let phones = number.map { [LabeledPhone(label: nil, number: ws.workspace.parser.parse($0))] } ?? []
        let emails = email.map { [LabeledEmail(label: nil, address: $0)] } ?? []
        return try ws.workspace.contacts.insert(Person(firstName: first, lastName: "Test", phones: phones, emails: emails))
    }

    func composer(_ ws: WorkspaceHarness, _ pump: EffectPump, signature: String? = nil, source: ComposerSource = ComposerSource(),
                  toasts: ToastLog = ToastLog()) -> ComposerViewModel {
        ComposerViewModel(templates: ws.workspace.templates, invites: ws.workspace.invites, source: source,
                          context: pump.context(toasts: toasts.board), settings: ComposerSettings(sender: "Herald", senderName: "Ana",
                                                                                                  signature: signature))
    }

    /// A composer whose toasts are noted, its messages loaded.
    func loadedComposer(_ ws: WorkspaceHarness, _ pump: EffectPump, signature: String? = nil) async -> (ComposerViewModel, ToastLog) {
        let toasts = ToastLog()
        let vm = composer(ws, pump, signature: signature, toasts: toasts)
        vm.load()
        await pump.settle()
        return (vm, toasts)
    }

    @Test func loadsTheDefaultMessageAndMarksTheLinkAndFields() async throws {
        let ws = try await WorkspaceHarness.screens()
        let pump = EffectPump()
        let vm = composer(ws, pump)
        vm.load()
        await pump.settle()
        #expect(vm.text == PlatformEngine.defaultMessageText)
        #expect(vm.editingAllowed == true)
        #expect(!vm.isModified)
        let marks = vm.marks
        let link = marks.first { $0.kind == .link }
        let text = Array(vm.text)
        #expect(link.map { String(text[$0.range]) } == "<>")
        #expect(marks.filter { $0.kind == .field(known: true) }.map { String(text[$0.range]) } == ["{RECEIVER_NAME}", "{SENDER_NAME}"])
    }

    @Test func previewFillsTheRecipientAndLinkAndTheMeterCountsIt() async throws {
        let ws = try await WorkspaceHarness.screens()
        let pump = EffectPump()
        let vm = composer(ws, pump)
        vm.load()
        await pump.settle()
        vm.setRecipients([try person(ws, "Marko", "+385912345678"), try person(ws, "Iva", "+385912345679")])
        #expect(vm.preview.text == "Hi Marko Test, Ana invites you to Herald: https://herald.invalid/r/AbCd2345")
        vm.nextPreview()
        #expect(vm.preview.text.hasPrefix("Hi Iva Test,"))
        let m = vm.measurement
        #expect(m.encoding == .gsm7)
        #expect(m.segments == 1)
        #expect(m.unitsLeftInSegment == 160 - vm.preview.text.count)
    }

    @Test func charactersThatForceUCS2AreMarkedWhereTheyAre() async throws {
        let ws = try await WorkspaceHarness.screens()
        let pump = EffectPump()
        let vm = composer(ws, pump)
        vm.load()
        await pump.settle()
        #expect(!vm.hasUnsentChanges)
        #expect(vm.setText("Dođi na Herald 🎉 <>"))
        #expect(vm.hasUnsentChanges)             // quitting now asks first
        let ucs2 = vm.marks.filter { $0.kind == .ucs2 }.map(\.range.lowerBound)
        #expect(ucs2 == [2, 15])
        #expect(vm.measurement.encoding == .ucs2)
        #expect(vm.meterSummary.contains("UCS-2 because of \"đ\" \"🎉\""))
        #expect(vm.isModified)
    }

    @Test func senderIDIsCheckedAsYouType() async throws {
        let ws = try await WorkspaceHarness.screens()
        let vm = composer(ws, EffectPump())
        #expect(vm.senderProblem == nil)
        vm.setSender("HeraldInvites2")
        #expect(vm.senderProblem?.contains("at most 11 characters") == true)
        vm.setSender("AnaŽ")
        #expect(vm.senderProblem?.contains("\"Ž\" at position 4") == true)
        vm.setSender("Her ald!")
        #expect(vm.senderProblem?.contains("a space at position 4") == true)
        vm.setSender("385911234567")
        #expect(vm.senderProblem == nil)
    }

    @Test func signatureGoesOnItsOwnLineAndCountsAsAChange() async throws {
        let ws = try await WorkspaceHarness.screens()
        let pump = EffectPump()
        let vm = composer(ws, pump, signature: "— Ana")
        vm.load()
        await pump.settle()
        #expect(vm.signatureChoices == ["none", "— Ana"])
        vm.cycleSignature()
        #expect(vm.fullText == PlatformEngine.defaultMessageText + "\n— Ana")
        #expect(vm.isModified)
        vm.cycleSignature()
        #expect(!vm.isModified)
    }

    @Test func aMessageTheApplicationForbidsEditingIsReadOnlyWithTheReason() async throws {
        let ws = try await WorkspaceHarness.screens()
        try await ws.workspace.engine.setMessageEditingAllowed(false, applicationKey: ws.workspace.credentials.applicationKey)
        let pump = EffectPump()
        let (vm, toasts) = await loadedComposer(ws, pump, signature: "— Ana")
        #expect(vm.isReadOnly)
        #expect(vm.readOnlyReason?.contains("does not allow message editing") == true)
        #expect(!vm.setText("changed"))
        #expect(vm.text == PlatformEngine.defaultMessageText)
        vm.cycleSignature()
        #expect(vm.signature == nil)
        #expect(toasts.entries.last?.level == .warning)
    }

    @Test func whetherEditingIsAllowedUnreadIsToldNotTakenForYes() async throws {
        let ws = try await WorkspaceHarness.screens()
        let pump = EffectPump()
        let (vm, toasts) = await loadedComposer(ws, pump)
        #expect(vm.editingAllowed == true)
        // The messages are known here now; the settings can be read neither from the platform nor from a kept copy.
        try ws.workspace.settings.set("platform.application_settings", nil)
        let key = ws.workspace.credentials.applicationKey
        await ws.workspace.engine.injectFaults(.serverError(status: 500), count: 20, pathPrefix: "/herald/1/application/\(key)/settings")
        vm.load()
        await pump.settle()
        #expect(vm.text == PlatformEngine.defaultMessageText)
        #expect(vm.editingAllowed == nil)
        #expect(toasts.entries.contains { $0.level == .warning && $0.text.contains("could not read whether messages may be edited") },
                "\(toasts.entries)")
    }

    @Test func theConfirmationShowsThePreviewAndSenderCountsOnlyNumbersThatWillBeSentAndListsNamesInOrder() async throws {
        let ws = try await WorkspaceHarness.screens()
        let pump = EffectPump()
        // Zora's number was invited before: the send will leave it out, so the question does too.
        let ledger = StatusAnswer { numbers in
            UIThreadGuard.storageTouched("read")      // as the ledger does: recorded if called from UI code
            return Dictionary(uniqueKeysWithValues: numbers.filter { $0 == "+385913333333" }.map { ($0, .messageWaiting) })
        }
        let vm = composer(ws, pump, source: ComposerSource(latestStatuses: { ledger.answer($0) }))
        vm.load()
        await pump.settle()
        vm.setRecipients([try person(ws, "Zora", "+385913333333"), try person(ws, "Marko", "+385912345678"),
                          try person(ws, "Ana", "+385981111111")])
        let ui = UIThreadGuard()
        #expect(ui.run { vm.prepareSend() } == nil)
        #expect(vm.confirmation == nil)                 // the question waits for the ledger, read off the UI thread
        await pump.settle()
        #expect(ui.violations.isEmpty)
        let c = try #require(vm.confirmation)
        #expect(c.destinations == 2 && c.alreadyInvited == 1)
        #expect(c.lines.map { String($0.prefix(4)) } == ["Ana ", "Mark"])
        #expect(c.sender == vm.sender)
        #expect(c.preview.contains("Ana Test"))
        #expect(!c.needsExplicitYes)
        // More than 50 numbers ask for an explicit y.
        vm.setRecipients(try (0..<51).map { try person(ws, "P\($0)", "+38591\(String(format: "%07d", 2_000_000 + $0))") })
        ledger.answer = { _ in [:] }
        #expect(vm.prepareSend() == nil)
        await pump.settle()
        #expect(vm.confirmation?.needsExplicitYes == true)
    }

    @Test func withoutASenderNameTheSendAsksForItOnceKeepsItAndGoesOn() async throws {
        let ws = try await WorkspaceHarness.screens()
        let pump = EffectPump()
        let toasts = ToastLog()
        let invites = ws.workspace.invites
        let vm = ComposerViewModel(templates: ws.workspace.templates, invites: invites,
                                   source: ComposerSource(saveSenderName: { try invites.saveSenderName($0) }),
                                   context: pump.context(toasts: toasts.board),
                                   settings: ComposerSettings(sender: "Herald", senderName: nil, previewLink: ws.workspace.linkExample))
        var asked = 0
        /// The shell's `:name ` question, counted each time the composer asked it.
        func countAsked() { if vm.context.app.takePaletteRequest() == "name " { asked += 1 } }
        vm.load()
        await pump.settle()
        vm.setRecipients([try person(ws, "Zora", "+385913333333")])
        #expect(vm.prepareSend() == "no sender name")
        await pump.settle()
        countAsked()
        #expect(asked == 1 && vm.confirmation == nil, "the question is who invites, not whether to send")
        #expect(toasts.texts.last?.contains("who invites?") == true)
        vm.setSenderName("  ")                          // nothing is not a name
        #expect(vm.confirmation == nil)
        vm.setSenderName("Ana Horvat")
        await pump.settle()
        // The send goes on to its confirmation, whose preview is the text as it will leave.
        let c = try #require(vm.confirmation)
        #expect(c.preview == "Hi Zora Test, Ana Horvat invites you to Herald: \(ws.workspace.linkExample)")
        #expect(invites.savedSenderName == "Ana Horvat", "kept for the next sends, the CLI's too")
        #expect(toasts.texts.contains { $0.contains("invitations now say they are from Ana Horvat") })
        // Asked once: the next send goes straight to its confirmation.
        vm.cancelSend()
        #expect(vm.prepareSend() == nil)
        await pump.settle()
        countAsked()
        #expect(asked == 1 && vm.confirmation != nil)
    }

    @Test func sendAsksForConfirmationThenSendsAndToastsTheBulk() async throws {
        let ws = try await WorkspaceHarness.screens()
        let pump = EffectPump()
        let toasts = ToastLog()
        let vm = composer(ws, pump, toasts: toasts)
        vm.load()
        await pump.settle()
        #expect(vm.prepareSend() == "nobody selected: pick people in Contacts (space) first")
        vm.setRecipients([try person(ws, "Marko", "+385912345678"), try person(ws, "Nobody", nil)])
        #expect(vm.prepareSend() == nil)
        let confirmation = try #require(vm.confirmation)
        #expect(confirmation.destinations == 1)
        #expect(confirmation.totalSegments == 1)
        #expect(confirmation.unreachable == ["Nobody Test"])
        #expect(confirmation.title == "Send 1 SMS invitation (1 segment)?")
        #expect(confirmation.lines == ["Marko Test  +385912345678  1 SMS each"])
        vm.confirmSend()
        #expect(vm.confirmation == nil)
        await pump.settle()
        let bulk = try #require(vm.sentBulkIds.first)
        #expect(toasts.texts.last == "sent 1 invitation, bulk \(bulk)")
        #expect(try ws.workspace.ledger.bulk(id: bulk) != nil)
    }

    @Test func anEditedTextIsSavedAsACustomMessageAndSentWithIt() async throws {
        let ws = try await WorkspaceHarness.screens()
        let pump = EffectPump()
        let vm = composer(ws, pump)
        vm.load()
        await pump.settle()
        vm.setText("Come along, {RECEIVER_NAME}: <>")
        vm.setRecipients([try person(ws, "Marko", "+385912345678")])
        vm.prepareSend()
        vm.confirmSend()
        await pump.settle()
        let bulk = try #require(vm.sentBulkIds.first)
        let record = try #require(try ws.workspace.ledger.bulk(id: bulk))
        #expect(record.messageText == "Come along, {RECEIVER_NAME}: <>")
        #expect(vm.messages.count == 2)
        #expect(vm.selectedMessage?.text == "Come along, {RECEIVER_NAME}: <>")
        #expect(!vm.isModified)
    }

    @Test func anUnknownPlaceholderOrBadSenderStopsTheSend() async throws {
        let ws = try await WorkspaceHarness.screens()
        let pump = EffectPump()
        let vm = composer(ws, pump)
        vm.load()
        await pump.settle()
        vm.setRecipients([try person(ws, "Marko", "+385912345678")])
        vm.setText("Hi {NICKNAME} <>")
        // A field nobody selected has (a personal field may be any name: a typo is caught by whom it reaches).
        #expect(vm.prepareSend()?.hasPrefix("the message uses {NICKNAME} and none of the selected people has it") == true)
        #expect(vm.confirmation == nil)
        vm.setText("Hi <>")
        vm.setSender("")
        #expect(vm.prepareSend()?.hasPrefix("sender ID:") == true)
    }

    @Test func savingAsCustomAddsAndSelectsTheMessage() async throws {
        let ws = try await WorkspaceHarness.screens()
        let pump = EffectPump()
        let (vm, toasts) = await loadedComposer(ws, pump)
        vm.setText("Join me: <>")
        vm.saveAsCustom()
        await pump.settle()
        #expect(vm.messages.count == 2)
        #expect(vm.messageIndex == 1)
        #expect(toasts.texts.last?.hasPrefix("saved as message ") == true)
        vm.previousMessage()
        #expect(vm.text == PlatformEngine.defaultMessageText)
    }
}

/// The ledger's answer to "which of these numbers were invited", changed between sends.
nonisolated private final class StatusAnswer: @unchecked Sendable {
    var answer: @Sendable ([String]) -> [String: DeliveryStatus]
    init(_ answer: @escaping @Sendable ([String]) -> [String: DeliveryStatus]) { self.answer = answer }
}
