import Foundation
import HeraldTestKit
import HeraldCore
@testable import HeraldServices
import Testing
@testable import HeraldViewModels

/// The send confirmation quotes the message as a person it really goes to gets it.
@Suite struct ComposerConfirmationPreviewTests {
    @Test func thePreviewIsOfARecipientSentToNotOfOneLeftOut() async throws {
        let ws = try await WorkspaceHarness.screens()
        let pump = EffectPump()
        // Ana comes first by name, but her number was invited already: the send leaves her out.
        let source = ComposerSource(latestStatuses: { numbers in
            Dictionary(uniqueKeysWithValues: numbers.filter { $0 == "+385911111111" }.map { ($0, .deliveredToTerminal) })
        })
        let vm = ComposerViewModel(templates: ws.workspace.templates, invites: ws.workspace.invites, source: source,
                                   context: pump.context(), settings: ComposerSettings(sender: "Herald", senderName: "Ana"))
        vm.load()
        await pump.settle()
        func person(_ first: String, _ last: String, _ number: String) throws -> Person {
            try ws.workspace.contacts.insert(Person(firstName: first, lastName: last,
                                                    phones: [LabeledPhone(label: nil, number: ws.workspace.parser.parse(number))]))
        }
        vm.setRecipients([try person("Ana", "Kovačević", "+385911111111"), try person("Željka", "Perić", "+385922222222")])
        #expect(vm.prepareSend() == nil)
        await pump.settle()
        let c = try #require(vm.confirmation)
        #expect(c.destinations == 1 && c.alreadyInvited == 1)
        #expect(c.lines.count == 1 && c.lines[0].hasPrefix("Željka Perić"))
        #expect(c.preview.contains("Željka Perić"), "\(c.preview)")
        #expect(!c.preview.contains("Ana Kovačević"), "\(c.preview)")
    }
}
