import Foundation
import Testing
@testable import HeraldCardDAV

/// A CardDAV password that would cross a network in clear is named before the sync, in its report.
@Suite struct CardDAVCleartextTests {
    func account(_ url: String, username: String? = "ana") -> CardDAVAccount {
        CardDAVAccount(url: URL(string: url)!, username: username, passwordFile: nil, passwordCommand: "echo pw")
    }

    @Test func basicAuthOverHTTPToAnotherHostIsWarnedOfOnLoopbackOrHTTPSItIsNot() {
        #expect(account("http://dav.example.org/ana/contacts/").cleartextWarning
                == "the password goes to dav.example.org in clear (http://): anyone on the network can read it; use an https:// url")
        #expect(account("HTTP://192.168.1.20:5232/ana/").cleartextWarning?.contains("192.168.1.20 in clear") == true)
        #expect(account("https://dav.example.org/ana/contacts/").cleartextWarning == nil)
        #expect(account("http://127.0.0.1:5232/ana/").cleartextWarning == nil)
        #expect(account("http://localhost:5232/ana/").cleartextWarning == nil)
        #expect(account("http://[::1]:5232/ana/").cleartextWarning == nil)
        #expect(account("http://dav.example.org/ana/", username: nil).cleartextWarning == nil, "no password is sent")
    }
}
