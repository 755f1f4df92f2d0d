import Foundation
import Testing

/// A contact imported from a vCard whose FN holds an escape sequence does not fail the send of the others: the real
/// `herald` sends to it and to two more, and all three are accepted.
@Suite(.serialized) struct CLIDirtyNameSendTests {
    @Test func aNameWithAnEscapeSequenceFromAVCardIsSentToWithTheOthers() throws {
        let cli = try PlatformCLI()
        let ids = try cli.importContacts([("Ana", "Horvat", mobile(1)), ("Iv\u{1B}[31mo\u{7}", "Ko\u{1B}]0;pwned\u{7}vač", mobile(2)),
                                          ("Mia", "Babić", mobile(3))])
        #expect(ids.count == 3, "\(ids)")
        let to = ids.values.sorted().map(String.init)
        let sent = try cli.run(["send", "--to"] + to + ["--field", "SENDER_NAME=Zo\u{1B}[2Jë", "--json"])
        #expect(sent.status == 0, "\(sent)")
        let recipients = try #require(try sent.object()["recipients"] as? [[String: Any]])
        #expect(Set(recipients.compactMap { $0["address"] as? String }) == [mobile(1), mobile(2), mobile(3)])
        for recipient in recipients {
            #expect(!["Rejected", "SendFailed"].contains(recipient["status"] as? String ?? "?"), "\(recipient)")
            #expect(recipient["reason"] == nil || recipient["reason"] is NSNull, "\(recipient)")
        }
    }
}
