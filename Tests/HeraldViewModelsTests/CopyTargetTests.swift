import Foundation
import HeraldServices
import Testing
@testable import HeraldViewModels

/// The copy key: what it copies and the OSC 52 bytes that carry it.
@Suite struct CopyTargetTests {
    @Test func theFirstLinkOfAMessageIsFoundWithoutTrailingPunctuation() {
        #expect(CopyTarget.firstLink(in: "Join us at https://example.com/r/abc123. See you!") == "https://example.com/r/abc123")
        #expect(CopyTarget.firstLink(in: "(http://a.example/x?y=1), then https://b.example") == "http://a.example/x?y=1")
        #expect(CopyTarget.firstLink(in: "no link here") == nil)
    }

    @Test func theBytesArePlainOSC52EvenInsideTmuxAndTheToastSaysWhichWay() throws {
        let target = CopyTarget(text: "+385911234567", what: "number")
        let osc52 = [0x1B] + Array("]52;c;\(Data("+385911234567".utf8).base64EncodedString())".utf8) + [0x07]
        #expect(CopyTarget.bytes(for: target, environment: [:]).bytes == osc52)
        // tmux 3.3 drops passthrough by default: inside it the sequence stays plain, for set-clipboard on to pass on.
        let inTmux = CopyTarget.bytes(for: target, environment: ["TMUX": "/tmp/tmux-0/default,1,0"])
        #expect(inTmux.bytes == osc52)
        #expect(inTmux.toast.1 == "copied the number through the terminal (OSC 52; tmux passes it on with set-clipboard on): +385911234567")
        let toast = CopyTarget.bytes(for: target, environment: [:]).toast
        #expect(toast.0 == .success && toast.1 == "copied the number through the terminal (OSC 52): +385911234567")
    }

    @Test func nothingToCopySaysSoAndTooMuchIsRefused() {
        let none = CopyTarget.bytes(for: nil, environment: [:])
        #expect(none.bytes == nil && none.toast.1 == "nothing to copy here")
        let huge = CopyTarget.bytes(for: CopyTarget(text: String(repeating: "x", count: 100_000), what: "text"), environment: [:])
        #expect(huge.bytes == nil && huge.toast.0 == .error)
    }
}
