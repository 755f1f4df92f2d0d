import Foundation
import HeraldTestKit
import Testing
@testable import HeraldCardDAV

/// Discovery against a server that leads it astray (Fixtures/discovery_redirects.py on a free loopback port): a
/// redirect chain without end, a redirect and a principal on another host, an answer too large; each stops, bounded,
/// and says why in what was tried.
@Suite(.serialized) struct DiscoveryBoundsTests {
    final class Astray: @unchecked Sendable {
        let folder: TempDir
        let port: Int
        let process = Process()

        init() throws {
            folder = try TempDir("discovery-astray")
            port = try RadicaleServer.freePort()
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/discovery_redirects.py")
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = [script.path, String(port)]
            process.standardError = FileHandle.nullDevice
            try process.run()
            try RadicaleServer.waitForPort(port, process: process, log: folder.url.appendingPathComponent("none"))
        }

        deinit {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        func discover(_ path: String) async -> DiscoveryFailure? {
            do {
                _ = try await CardDAVDiscovery(url: URL(string: "http://127.0.0.1:\(port)\(path)")!, username: "ana", password: "pw", timeout: 5).discover()
                return nil
            } catch { return error }
        }
    }

    @Test func aRedirectChainStopsAfterFiveHopsAndDiscoveryAfterSixteenRequests() async throws {
        let a = try Astray()
        let failure = try #require(await a.discover("/loop/0"))
        #expect(failure.attempts.prefix(6).allSatisfy { $0.status == 302 }, "\(failure)")
        #expect(failure.attempts[5].outcome.hasSuffix("→ http://127.0.0.1:\(a.port)/loop/6, not followed: more than 5 redirects"), "\(failure)")
        #expect(failure.attempts.count <= 16)
        #expect(failure.attempts[6].url.hasSuffix("/.well-known/carddav") && failure.attempts[6].status == 301, "\(failure)")
        var tight: DiscoveryFailure?
        do {
            _ = try await CardDAVDiscovery(url: URL(string: "http://127.0.0.1:\(a.port)/loop/0")!, username: "ana", password: "pw",
                                           maxRequests: 3).discover()
        } catch { tight = error }
        #expect(tight?.attempts.filter { $0.status != nil }.count == 3)
        #expect(tight?.attempts.last?.outcome == "not asked: discovery stops after 3 requests", "\(tight?.description ?? "")")
    }

    @Test func anotherHostIsNotFollowedAndSaysHowToAllowIt() async throws {
        let a = try Astray()
        let offsite = try #require(await a.discover("/offsite"))
        #expect(offsite.attempts[0].outcome.contains("301 → http://elsewhere.invalid/dav/, not followed"), "\(offsite)")
        let downgrade = try #require(await a.discover("/downgrade"))
        #expect(downgrade.attempts[0].outcome.contains("http://elsewhere.invalid/principal/ is not followed: it would send the password in clear"),
                "\(downgrade)")
        #expect(downgrade.description.contains("no principal with an address-book home set"))
    }

    @Test func anAnswerTooLargeIsNotRead() async throws {
        let a = try Astray()
        let failure = try #require(await a.discover("/big"))
        #expect(failure.attempts[0].outcome == "an answer larger than 4 MiB: not read", "\(failure)")
    }
}
