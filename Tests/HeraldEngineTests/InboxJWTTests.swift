import Foundation
import HeraldTestKit
import Testing
import HeraldAPI
import HeraldCore
import JWTKit
@testable import HeraldEngine

/// Claims with every field optional, to build wrong tokens on purpose.
struct TestClaims: JWTPayload {
    var typ: String? = "Bearer"
    var sub: String? = "Ana"
    var apiKey: String?
    var iat: Double?
    var exp: Double?
    var jti: String? = UUID().uuidString

    enum CodingKeys: String, CodingKey {
        case typ, sub, iat, exp, jti
        case apiKey = "infobip-api-key"
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

@Suite struct InboxJWTTests {
    struct Setup {
        let h: EngineHarness
        let key: JWTKeyInfo
        var now: Double { h.clock.now().timeIntervalSince1970 }

        func claims() -> TestClaims {
            TestClaims(apiKey: h.creds.applicationCode, iat: now - 10, exp: now + 600)
        }

        func sign(_ claims: TestClaims, kid: String? = nil, secretHex: String? = nil, sha512: Bool = false) async throws -> String {
            let keys = JWTKeyCollection()
            let secret = Identifiers.bytes(fromHex: secretHex ?? key.secretHex) ?? []
            let id = JWKIdentifier(string: kid ?? key.keyId)
            await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: sha512 ? .sha512 : .sha256, kid: id)
            return try await keys.sign(claims, kid: id, header: ["typ": "JWT"])
        }

        func fetch(_ token: String, user: String = "Ana") async throws(APIError) -> InboxResponse {
            try await h.call(FetchInbox(credential: .bearer(token), externalUserId: user))
        }
    }

    func setup(mode: InboxAuthMode = .jwt) async throws -> Setup {
        let h = try await EngineHarness.make()
        try await h.engine.setInboxAuthMode(mode, applicationKey: h.creds.applicationKey)
        let key = try await h.engine.generateJWTKey(applicationKey: h.creds.applicationKey, keyId: "k1")
        try await h.engine.pushInbox(user: "Ana", topic: "promo", title: "Hi", body: "Welcome")
        return Setup(h: h, key: key)
    }

    @Test func aValidTokenReadsTheInbox() async throws {
        let s = try await setup()
        defer { s.h.cleanUp() }
        let r = try await s.fetch(try await s.sign(s.claims()))
        #expect(r.messages.map(\.body) == ["Welcome"])
        let minted = try await s.h.engine.issueInboxToken(applicationKey: s.h.creds.applicationKey, keyId: "k1", user: "Ana")
        #expect(try await s.fetch(minted).countTotal == 1)
    }

    @Test func applicationCodeOnAJWTApplicationSaysAccessTokenMissing() async throws {
        let s = try await setup()
        defer { s.h.cleanUp() }
        let r = await s.h.raw(.get, "/mobile/1/user/Ana/inbox/apns/messages", auth: "App \(s.h.creds.applicationCode)")
        #expect(r.status == 401)
        let ex = (jsonObject(r.body)["requestError"] as? [String: Any])?["serviceException"] as? [String: Any]
        #expect(ex?["messageId"] as? String == "ACCESS_TOKEN_MISSING")
        // Seen marks still use the application code.
        _ = try await s.h.call(MarkInboxSeen(applicationCode: s.h.creds.applicationCode,
                                             body: SeenBody(externalUserId: "Ana", messages: [])))
    }

    @Test func everyBrokenClaimIsRefusedWithoutDetail() async throws {
        let s = try await setup()
        defer { s.h.cleanUp() }
        var cases: [(String, TestClaims)] = []
        var c = s.claims(); c.typ = "JWT"; cases.append(("typ", c))
        c = s.claims(); c.typ = nil; cases.append(("no typ", c))
        c = s.claims(); c.sub = "ana"; cases.append(("sub of another user", c))
        c = s.claims(); c.sub = nil; cases.append(("no sub", c))
        c = s.claims(); c.apiKey = s.h.creds.secret; cases.append(("api key", c))
        c = s.claims(); c.iat = s.now + 60; cases.append(("iat in the future", c))
        c = s.claims(); c.iat = nil; cases.append(("no iat", c))
        c = s.claims(); c.exp = s.now - 1; cases.append(("expired", c))
        c = s.claims(); c.exp = s.now; cases.append(("expires now", c))
        c = s.claims(); c.exp = nil; cases.append(("no exp", c))
        c = s.claims(); c.jti = nil; cases.append(("no jti", c))
        c = s.claims(); c.jti = ""; cases.append(("empty jti", c))
        for (name, claims) in cases {
            let token = try await s.sign(claims)
            let r = await s.h.engine.handle(try FetchInbox(credential: .bearer(token), externalUserId: "Ana").request())
            #expect(r.status == 401, "\(name)")
            let ex = (jsonObject(r.body)["requestError"] as? [String: Any])?["serviceException"] as? [String: Any]
            #expect(ex?["messageId"] as? String == "UNAUTHORIZED", "\(name)")
            #expect(ex?["validationErrors"] == nil, "\(name)")
        }
    }

    @Test func expiryFollowsTheInjectedClock() async throws {
        let s = try await setup()
        defer { s.h.cleanUp() }
        let token = try await s.sign(s.claims())
        s.h.clock.advance(by: 601)
        await #expect(throws: APIError.unauthorized) { try await s.fetch(token) }
    }

    @Test func aJtiIsNeverAcceptedTwice() async throws {
        let s = try await setup()
        defer { s.h.cleanUp() }
        let token = try await s.sign(s.claims())
        _ = try await s.fetch(token)
        await #expect(throws: APIError.unauthorized) { try await s.fetch(token) }
        // Not even after a restart.
        let reopened = try await s.h.reopen()
        await #expect(throws: APIError.unauthorized) {
            try await s.h.call(FetchInbox(credential: .bearer(token), externalUserId: "Ana"), on: reopened)
        }
    }

    @Test func unknownKidWrongSecretAndOtherAlgorithmsAreRefused() async throws {
        let s = try await setup()
        defer { s.h.cleanUp() }
        await #expect(throws: APIError.unauthorized) { try await s.fetch(try await s.sign(s.claims(), kid: "k2")) }
        let otherSecret = String(repeating: "ab", count: 32)
        await #expect(throws: APIError.unauthorized) { try await s.fetch(try await s.sign(s.claims(), secretHex: otherSecret)) }
        // HS512 (jwt-kit wants a 64-byte key for it; the engine refuses the algorithm before any key is used).
        let longSecret = s.key.secretHex + s.key.secretHex
        await #expect(throws: APIError.unauthorized) {
            try await s.fetch(try await s.sign(s.claims(), secretHex: longSecret, sha512: true))
        }
        // alg none: a valid HS256 token with its header swapped and the signature dropped.
        let valid = try await s.sign(s.claims())
        let parts = valid.split(separator: ".")
        let noneHeader = Data(#"{"alg":"none","typ":"JWT","kid":"k1"}"#.utf8).base64EncodedString()
            .replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        await #expect(throws: APIError.unauthorized) { try await s.fetch("\(noneHeader).\(parts[1]).") }
        await #expect(throws: APIError.unauthorized) { try await s.fetch("\(noneHeader).\(parts[1]).\(parts[2])") }
        await #expect(throws: APIError.unauthorized) { try await s.fetch("garbage") }
        // A removed key stops working.
        try await s.h.engine.removeJWTKey(applicationKey: s.h.creds.applicationKey, keyId: "k1")
        await #expect(throws: APIError.unauthorized) { try await s.fetch(try await s.sign(s.claims())) }
    }

    @Test func shortOrNonHexSecretsAreRefusedBeforeReachingJWTKit() async throws {
        let s = try await setup()
        defer { s.h.cleanUp() }
        let app = s.h.creds.applicationKey
        do {
            try await s.h.engine.addJWTKey(applicationKey: app, keyId: "short", secretHex: String(repeating: "a", count: 62))
            Issue.record("expected a refusal")
        } catch let error as EngineError {
            #expect(error.description.contains("at least 32"))
        }
        await #expect(throws: EngineError.self) {
            try await s.h.engine.addJWTKey(applicationKey: app, keyId: "x", secretHex: "zz" + String(repeating: "a", count: 64))
        }
        try await s.h.engine.addJWTKey(applicationKey: app, keyId: "ok", secretHex: String(repeating: "A", count: 64))
        #expect(try await s.h.engine.jwtKeys(applicationKey: app).map(\.keyId) == ["k1", "ok"])
    }

    @Test func applicationCodeModeAcceptsBothCodeAndToken() async throws {
        let s = try await setup(mode: .applicationCode)
        defer { s.h.cleanUp() }
        #expect(try await s.h.call(FetchInbox(credential: .app(s.h.creds.applicationCode), externalUserId: "Ana")).countTotal == 1)
        #expect(try await s.fetch(try await s.sign(s.claims())).countTotal == 1)
    }
}
