import Foundation
import HeraldAPI
import HeraldTestKit
import Testing
@testable import HeraldInfobip

/// Mobile Messaging's `New-Base-URL` is followed only to https on Infobip's hosts (or, for a base URL the operator set
/// outside Infobip, within that host): a refused move is ignored, and the inbox keeps being read where it was.
@Suite struct InfobipBaseURLPinTests {
    @Test func aMoveToAnotherHostIsIgnoredAndNothingGoesThere() async throws {
        let state = StandInState()
        await InfobipInboxTests.fill(state, user: "u1")
        let (url, server) = try await InfobipStandIn.start(state: state)
        defer { server.cancel() }
        // Another server, reached by another host name, in clear: where a forged answer would send the inbox reads.
        let elsewhere = StandInState()
        let (elsewhereURL, elsewhereServer) = try await InfobipStandIn.start(state: elsewhere)
        defer { elsewhereServer.cancel() }
        let hostile = try #require(URL(string: "http://localhost:\(elsewhereURL.port ?? 0)"))
        await state.setMoveInboxTo(hostile.absoluteString)
        let tempDir = try TempDir("pin")
        let dir = tempDir.url
        let memory = dir.appendingPathComponent(InfobipPlatform.mobileBaseURLFileName)
        let transport = MobileMessagingTransport(baseURL: url, applicationCode: state.applicationCode, memory: memory)
        let fetch = try FetchInbox(credential: .app(state.applicationCode), externalUserId: "u1", limit: 5).request()
        #expect(try await transport.send(fetch).status == 200)
        #expect(try await transport.send(fetch).status == 200)
        #expect(await transport.baseURL == url)
        #expect(await state.requests(to: "/mobile/").count == 2)
        #expect(await elsewhere.requests(to: "/mobile/").isEmpty, "an inbox read went to the host the answer named")
        #expect(!FileManager.default.fileExists(atPath: memory.path), "the refused move was kept for the next run")

        // A kept move of an older Herald to such a host is not used either.
        try Data((hostile.absoluteString + "\n" + String(Int(Date().timeIntervalSince1970)) + "\n").utf8).write(to: memory)
        #expect(await MobileMessagingTransport(baseURL: url, applicationCode: state.applicationCode, memory: memory).baseURL == url)
    }

    @Test func onlyHTTPSOnInfobipsHostsIsFollowedFromInfobip() throws {
        let configured = try #require(URL(string: "https://mobile.infobip.com"))
        for good in ["https://abc12.mobile.infobip.com", "https://api.infobip.com", "https://xyz.api.infobip.com/", "https://INFOBIP.com"] {
            #expect(MobileMessagingTransport.acceptsMove(good, from: configured), "\(good)")
        }
        for bad in ["http://abc12.mobile.infobip.com", "https://evil.example", "https://infobip.com.evil.example",
                    "https://evilinfobip.com", "https://api.infobip.com@evil.example", "https://user:pw@api.infobip.com",
                    "ftp://api.infobip.com", "https://mobile.infobip.com.", "not a url"] {
            #expect(!MobileMessagingTransport.acceptsMove(bad, from: configured), "\(bad)")
        }
        // A base URL the operator set outside Infobip moves within its own host and scheme, or to Infobip.
        let proxy = try #require(URL(string: "http://127.0.0.1:8080"))
        #expect(MobileMessagingTransport.acceptsMove("http://127.0.0.1:9090", from: proxy))
        #expect(MobileMessagingTransport.acceptsMove("https://xyz.api.infobip.com", from: proxy))
        #expect(!MobileMessagingTransport.acceptsMove("http://localhost:9090", from: proxy))
        #expect(!MobileMessagingTransport.acceptsMove("https://127.0.0.1:9090", from: proxy))
    }
}
