import Foundation
import HeraldAPI
import HeraldServer
import HeraldTestKit
import Testing

/// What a client without a key can make a server do: close its connection when it dawdles, refuse it beyond the cap,
/// answer before reading a body it sent, and throttle an address that keeps guessing keys.
@Suite struct ServerLimitsTests {
    static func options(_ change: (inout ServerOptions) -> Void) -> ServerOptions {
        var options = ServerOptions(host: "127.0.0.1", port: 0)
        change(&options)
        return options
    }

    @Test func aSilentOrTricklingConnectionIsClosedWithinTheHeadTimeoutOfItsStart() async throws {
        // The idle timeout is long: only the head deadline, counted from the connection's start, can close these.
        let s = try await ServerHarness(options: Self.options { $0.headerTimeout = 1; $0.idleTimeout = 30 })
        defer { s.stop() }
        let started = Date()
        let silent = try RawConnection(port: s.port)
        let half = try RawConnection(port: s.port)
        half.send("GET /health HTTP/1.1\r\nHost: x\r\n")      // never ends its head
        // A slow loris: one byte of a head every 200 ms, never renewing its deadline.
        let trickle = try RawConnection(port: s.port)
        let dripping = Task.detached {
            for byte in "GET /health HTTP/1.1\r\nX-Slow: ".utf8 + Array(repeating: UInt8(ascii: "a"), count: 200) {
                guard trickle.send([byte]) else { return Date() }
                try? await Task.sleep(nanoseconds: 200_000_000)
            }
            return Date()
        }
        let silentEnd = await silent.read(timeout: 10)
        #expect(silentEnd.closed, "a connection that sent nothing still open after 10 s")
        #expect(Date().timeIntervalSince(started) < 3)
        let halfEnd = await half.read(timeout: 5)
        #expect(halfEnd.closed, "a half-sent head still open")
        let cutOff = await dripping.value
        #expect(cutOff.timeIntervalSince(started) < 4, "a trickled head kept its connection \(cutOff.timeIntervalSince(started)) s")
    }

    @Test func aKeptAliveConnectionIsClosedAfterTheIdleTimeout() async throws {
        let s = try await ServerHarness(options: Self.options { $0.idleTimeout = 1 })
        defer { s.stop() }
        let kept = try RawConnection(port: s.port)
        kept.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(await kept.response(timeout: 5).status == 200)
        let answered = Date()
        #expect(await kept.read(timeout: 5).closed)
        #expect(Date().timeIntervalSince(answered) < 3)
    }

    @Test func beyondTheConnectionCapANewConnectionGets503() async throws {
        // Three clients with a connection each fill the cap (one client may hold one of three).
        let s = try await ServerHarness(options: Self.options { $0.maxConnections = 3 })
        defer { s.stop() }
        let held = try (2...4).map { try RawConnection(port: s.port, from: "127.0.0.\($0)") }
        #expect(await Self.eventually { s.connections == 3 })
        let extra = try RawConnection(port: s.port, from: "127.0.0.5")
        let refused = await extra.response(timeout: 5)
        #expect(refused.status == 503)
        #expect(refused.head.lowercased().contains("retry-after: 1"))
        held.forEach { $0.close() }
        #expect(await Self.eventually { s.connections == 0 })
        #expect(try await s.raw(.get, "/health").status == 200)
    }

    @Test func oneAddressHoldsAQuarterOfTheConnectionsAndOthersStillGetIn() async throws {
        // The report: with a cap of 40, 45 idle sockets from one address left nobody else a slot.
        let s = try await ServerHarness(options: Self.options { $0.maxConnections = 40 })
        defer { s.stop() }
        let hog = try (0..<45).map { _ in try RawConnection(port: s.port, from: "127.0.0.2") }
        let answers = await withTaskGroup(of: (status: Int?, head: String, body: String).self) { group in
            for c in hog { group.addTask { await c.response(timeout: 2) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let refused = answers.filter { $0.status == 429 }
        #expect(refused.count == 35, "\(answers.map(\.status))")
        #expect(answers.filter { $0.status == nil }.count == 10)
        #expect(refused.allSatisfy { $0.head.lowercased().contains("retry-after: 1") && $0.body.contains("TOO_MANY_REQUESTS") })
        #expect(refused.first?.body.contains("10 connections open") == true)
        // Everyone else is served while the ten are held.
        #expect(try await s.raw(.get, "/health").status == 200)
        let other = try RawConnection(port: s.port, from: "127.0.0.3")
        other.send("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(await other.status(timeout: 5) == 200)
        // A slot given back is the address's again.
        #expect(s.connections(from: "127.0.0.2") == 10)
        hog.forEach { $0.close() }
        #expect(await Self.eventually { s.connections(from: "127.0.0.2") == 0 })
        let again = try RawConnection(port: s.port, from: "127.0.0.2")
        again.send("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(await again.status(timeout: 5) == 200)
    }

    /// Whether `condition` holds within `seconds`.
    static func eventually(_ seconds: Double = 5, _ condition: () -> Bool) async -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition() { return true }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return condition()
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

    @Test func wrongKeysOnTheInboxRouteAreCountedLikeAnyOtherAndGet429() async throws {
        let s = try await ServerHarness(options: Self.options { $0.authFailuresPerMinute = 3 })
        defer { s.stop() }
        let inbox = "/mobile/1/user/demo/inbox/apns/messages"
        for i in 0..<3 { #expect(try await s.raw(.get, inbox, key: "guess-\(i)").status == 401) }
        let locked = try await s.raw(.get, inbox, key: "guess-3")
        #expect(locked.status == 429)
        #expect(Int(locked.header("Retry-After") ?? "") ?? 0 >= 1)
        // Once locked out, the address is locked out on every route.
        #expect(try await s.raw(.get, "/herald/1/session", key: s.viewer).status == 429)
    }

    @Test func theRightApplicationCodeRefusedByPolicyIsNotCountedAsAGuess() async throws {
        let s = try await ServerHarness(options: Self.options { $0.authFailuresPerMinute = 3 })
        defer { s.stop() }
        let code = try #require(try await s.engine.credentials(applicationKey: s.applicationKey)).applicationCode
        let inbox = "/mobile/1/user/demo/inbox/apns/messages"
        for _ in 0..<5 { #expect(try await s.raw(.get, inbox, key: code).status == 403) }
        #expect(try await s.raw(.get, inbox, key: s.viewer).status == 200)
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
