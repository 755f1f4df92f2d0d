import Foundation
import HeraldCore
import HeraldServices
import HeraldTestKit
import Testing
@testable import HeraldInfobip

/// Infobip direct goes through the same cleaning as every platform: names holding an escape sequence and a bell are
/// sent, and the text Infobip gets carries them without.
@Suite struct InfobipDirtyNameTests {
    @Test func dirtyNamesReachInfobipCleanedAndNoRecipientFails() async throws {
        let h = try await InfobipHarness()
        // A name as a card brought it, given as the receiver's name of every number (the same path a person's name takes).
        let fields = ["SENDER_NAME": "Iva\u{9B}2J", "RECEIVER_NAME": "Iv\u{1B}[31mo\u{7} Horvat"]
        let result = try await h.workspace.invites.invite(numbers: (0..<3).map(InfobipHarness.mobile), options: InviteOptions(fields: fields))
        #expect(result.recipients.count == 3)
        #expect(result.recipients.allSatisfy { $0.status == DeliveryStatus.messageWaiting }, "\(result.recipients)")
        let sent = await h.state.sentInOrder
        #expect(sent.count == 3)
        #expect(sent.allSatisfy { $0.text.hasPrefix("Hi Ivo Horvat, Iva invites you") }, "\(sent.map(\.text))")
        #expect(sent.allSatisfy { TerminalSafeText.isAlreadySafe($0.text, singleLine: false) })
    }
}
