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

    @Test func theBytesAreOSC52AndWrappedOnlyInsideTmux() throws {
        let target = CopyTarget(text: "+385911234567", what: "number")
        let plain = try #require(CopyTarget.bytes(for: target, environment: [:]).bytes)
        #expect(plain == [0x1B] + Array("]52;c;\(Data("+385911234567".utf8).base64EncodedString())".utf8) + [0x07])
        let wrapped = try #require(CopyTarget.bytes(for: target, environment: ["TMUX": "/tmp/tmux-0/default,1,0"]).bytes)
        #expect(wrapped.starts(with: [0x1B] + Array("Ptmux;".utf8)))
        let toast = CopyTarget.bytes(for: target, environment: [:]).toast
        #expect(toast.0 == .success && toast.1 == "copied the number: +385911234567")
    }

    @Test func nothingToCopySaysSoAndTooMuchIsRefused() {
        let none = CopyTarget.bytes(for: nil, environment: [:])
        #expect(none.bytes == nil && none.toast.1 == "nothing to copy here")
        let huge = CopyTarget.bytes(for: CopyTarget(text: String(repeating: "x", count: 100_000), what: "text"), environment: [:])
        #expect(huge.bytes == nil && huge.toast.0 == .error)
    }
}
