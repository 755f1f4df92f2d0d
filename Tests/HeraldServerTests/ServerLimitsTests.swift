import Foundation
import HeraldAPI
import HeraldServer
import PostgresTestCluster
import Testing

/// What a client without a key can make a server do: close its connection when it dawdles, refuse it beyond the cap,
/// answer before reading a body it sent, and throttle an address that keeps guessing keys.
@Suite struct ServerLimitsTests {
    static func options(_ change: (inout ServerOptions) -> Void) -> ServerOptions {
        var options = ServerOptions(host: "127.0.0.1", port: 0)
        change(&options)
        return options
    }

    @Test func aSilentOrHalfSentConnectionIsClosedByTheServerWithinItsTimeouts() async throws {
        let s = try await ServerHarness(options: Self.options { $0.headerTimeout = 1; $0.idleTimeout = 2 })
        defer { s.stop() }
        let silent = try RawConnection(port: s.port)
        let half = try RawConnection(port: s.port)
        half.send("GET /health HTTP/1.1\r\nHost: x\r\n")      // never ends its head
        let started = Date()
        let halfEnd = await half.read(timeout: 5)
        #expect(halfEnd.closed, "a half-sent head still open after 5 s")
        #expect(Date().timeIntervalSince(started) < 3)
        let silentEnd = await silent.read(timeout: 5)
        #expect(silentEnd.closed, "an idle connection still open after 5 s")
        // A kept-alive connection after a whole request closes too once idle.
        let kept = try RawConnection(port: s.port)
        kept.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await kept.response(timeout: 5).status == 200)
        #expect(await kept.read(timeout: 5).closed)
    }

    @Test func beyondTheConnectionCapANewConnectionGets503() async throws {
        let s = try await ServerHarness(options: Self.options { $0.maxConnections = 3 })
        defer { s.stop() }
        let held = try (0..<3).map { _ in try RawConnection(port: s.port) }
        try await Task.sleep(nanoseconds: 200_000_000)
        let extra = try RawConnection(port: s.port)
        let refused = await extra.response(timeout: 5)
        #expect(refused.status == 503)
        #expect(refused.head.lowercased().contains("retry-after: 1"))
        held.forEach { $0.close() }
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(try await s.raw(.get, "/health").status == 200)
    }

    @Test func aBodyWithoutAKeyIsNeverReadAndItsConnectionEnds() async throws {
        let s = try await ServerHarness()
        defer { s.stop() }
        let c = try RawConnection(port: s.port)
        // A 1 MiB body announced, 10 bytes of it sent, no key: the 401 comes at once, without the rest.
        c.send("POST /1/social-invite/invitation HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n{\"messag")
        let answer = await c.response(timeout: 3)
        #expect(answer.status == 401)
        #expect(answer.head.lowercased().contains("connection: close"))
        #expect(await c.read(timeout: 3).closed)
        // A wrong key likewise.
        let wrong = try RawConnection(port: s.port)
        wrong.send("PUT /1/social-invite/application/x/message/y HTTP/1.1\r\nHost: x\r\nAuthorization: App hk_nope\r\nContent-Length: 1048576\r\n\r\n{")
        #expect(await wrong.response(timeout: 3).status == 401)
    }

    @Test func aKeyedBodyThatStopsArrivingIsCutOffAtTheBodyTimeout() async throws {
        let s = try await ServerHarness(options: Self.options { $0.bodyTimeout = 1 })
        defer { s.stop() }
        let c = try RawConnection(port: s.port)
        c.send("POST /1/social-invite/invitation HTTP/1.1\r\nHost: x\r\nAuthorization: App \(s.sender)\r\nContent-Length: 5000\r\n\r\n{\"messageKey")
        let started = Date()
        let end = await c.read(timeout: 5)
        #expect(end.closed || RawConnection.status(of: end.data) == 408)
        #expect(Date().timeIntervalSince(started) < 4)
        #expect(try await s.raw(.get, "/health").status == 200)
    }

    @Test func anAddressThatKeepsFailingAuthenticationGets429WithRetryAfter() async throws {
        let s = try await ServerHarness(options: Self.options { $0.authFailuresPerMinute = 3 })
        defer { s.stop() }
        for _ in 0..<3 { #expect(try await s.raw(.get, "/herald/1/session", key: "hk_guess").status == 401) }
        let locked = try await s.raw(.get, "/herald/1/session", key: "hk_guess")
        #expect(locked.status == 429)
        #expect(Int(locked.header("Retry-After") ?? "") ?? 0 >= 1)
        // Open routes stay open.
        #expect(try await s.raw(.get, "/health").status == 200)
    }

    @Test func shortLinkClicksAreCountedInBatchesAndThrottledPerAddress() async throws {
        let s = try await ServerHarness(options: Self.options { $0.clicksPerMinute = 5 })
        defer { s.stop() }
        let link = try await s.engine.referralLink(applicationKey: s.applicationKey, referrer: "ana")
        func open(_ code: String) async throws -> Int? {
            let c = try RawConnection(port: s.port)
            c.send("GET /r/\(code) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            return await c.status(timeout: 5)
        }
        var statuses: [Int?] = []
        for _ in 0..<7 { statuses.append(try await open(link.code)) }
        #expect(statuses == [302, 302, 302, 302, 302, 429, 429])
        #expect(try await open("nosuchcode") == 429)
        // The five counted reach the database within the batch interval.
        var clicks = 0
        for _ in 0..<40 where clicks < 5 {
            try await Task.sleep(nanoseconds: 50_000_000)
            clicks = try await s.engine.referralLink(applicationKey: s.applicationKey, referrer: "ana").clicks
        }
        #expect(clicks == 5)
    }

    @Test func healthAnswersHeadAndTellsLivenessAndReadinessAndEveryAnswerCarriesARequestId() async throws {
        let s = try await ServerHarness()
        defer { s.stop() }
        let c = try RawConnection(port: s.port)
        c.send("HEAD /health HTTP/1.1\r\nHost: x\r\nX-Request-Id: trace-42\r\n\r\n")
        let head = await c.response(timeout: 3)
        #expect(head.status == 200)
        #expect(head.head.contains("trace-42"))
        #expect(try await s.raw(.get, "/health/live").status == 200)
        #expect(try await s.raw(.get, "/health/ready").status == 200)
        let made = try await s.raw(.get, "/health/ready")
        #expect((made.header("X-Request-Id") ?? "").count >= 16)
    }
}
