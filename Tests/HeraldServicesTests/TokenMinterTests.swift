import Foundation
import HeraldCore
import HeraldTestKit
import JWTKit
import Testing
@testable import HeraldServices

@Suite struct TokenMinterTests {
    static let secretHex = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
    let clock = ManualClock(Date(timeIntervalSince1970: 1_767_225_600.75))

    func config(secret: String = secretHex) -> InboxTokenConfig {
        InboxTokenConfig(keyId: "key-1", secretHex: secret, applicationCode: "app-code-9", lifetime: 300)
    }

    /// Splits a compact JWT and decodes its header and claims as JSON objects.
    func decode(_ token: String) throws -> (header: [String: Any], claims: [String: Any]) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 3)
        func json(_ part: String) throws -> [String: Any] {
            var b64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while b64.count % 4 != 0 { b64 += "=" }
            let data = try #require(Data(base64Encoded: b64))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        return (try json(parts[0]), try json(parts[1]))
    }

    @Test func tokenHasTheHeaderAndEveryMandatoryClaim() async throws {
        let minter = try TokenMinter(config: config(), clock: clock)
        let token = try await minter.mint(for: "User-42")
        let (header, claims) = try decode(token)
        #expect(header["alg"] as? String == "HS256")
        #expect(header["typ"] as? String == "JWT")
        #expect(header["kid"] as? String == "key-1")
        #expect(claims["typ"] as? String == "Bearer")
        #expect(claims["sub"] as? String == "User-42")
        #expect(claims["infobip-api-key"] as? String == "app-code-9")
        #expect(claims["iss"] as? String == "app-code-9")
        // Whole seconds: iat is the clock's time rounded down, exp five minutes later.
        #expect(claims["iat"] as? Int == 1_767_225_600)
        #expect(claims["exp"] as? Int == 1_767_225_900)
        let jti = try #require(claims["jti"] as? String)
        #expect(UUID(uuidString: jti) != nil)
    }

    @Test func eachTokenHasItsOwnJTI() async throws {
        let minter = try TokenMinter(config: config(), clock: clock)
        let a = try decode(try await minter.mint(for: "u")).claims["jti"] as? String
        let b = try decode(try await minter.mint(for: "u")).claims["jti"] as? String
        #expect(a != nil && a != b)
    }

    @Test func signatureVerifiesWithTheHexDecodedSecret() async throws {
        let minter = try TokenMinter(config: config(), clock: clock)
        let token = try await minter.mint(for: "user1")
        let secret: [UInt8] = Array(0..<32)
        let keys = await JWTKeyCollection().add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256, kid: "key-1")
        let claims = try await keys.verify(token, as: InboxTokenClaims.self)
        #expect(claims.sub == "user1")
        #expect(claims.exp == Date(timeIntervalSince1970: 1_767_225_900))
        #expect(claims.isExpired(at: clock.now().addingTimeInterval(299)) == false)
        #expect(claims.isExpired(at: clock.now().addingTimeInterval(300)))
    }

    @Test func signatureFailsWithTheSecretTakenAsText() async throws {
        // The secret is hex-decoded: a server that used the hex string itself must reject the token.
        let minter = try TokenMinter(config: config(), clock: clock)
        let token = try await minter.mint(for: "user1")
        let keys = await JWTKeyCollection().add(hmac: HMACKey(from: Array(Self.secretHex.utf8)), digestAlgorithm: .sha256, kid: "key-1")
        await #expect(throws: (any Error).self) { try await keys.verify(token, as: InboxTokenClaims.self) }
    }

    @Test(arguments: [
        ("abc", "even number of digits"),
        ("zz" + String(repeating: "00", count: 31), "character 1 is not"),
        (String(repeating: "ab", count: 31), "31 bytes"),
        ("", "empty"),
    ])
    func badSecretsThrowAnErrorNamingTheConfigKey(secret: String, fragment: String) throws {
        do {
            _ = try TokenMinter(config: config(secret: secret), clock: clock)
            Issue.record("expected an error for \(secret)")
        } catch let error as TokenMinterError {
            #expect(error.userMessage.hasPrefix("inbox.jwt_secret: "))
            #expect(error.userMessage.contains(fragment))
        }
    }

    @Test func uppercaseHexAndSurroundingWhitespaceAreAccepted() async throws {
        let minter = try TokenMinter(config: config(secret: "  " + Self.secretHex.uppercased() + "\n"), clock: clock)
        let token = try await minter.mint(for: "u")
        let keys = await JWTKeyCollection().add(hmac: HMACKey(from: Array(0..<32) as [UInt8]), digestAlgorithm: .sha256, kid: "key-1")
        _ = try await keys.verify(token, as: InboxTokenClaims.self)
    }

    @Test func missingKeyIdAndUserAreRefused() async throws {
        var cfg = config()
        cfg.keyId = " "
        #expect(throws: TokenMinterError.invalidConfig(configKey: "inbox.jwt_key_id",
                                                       problem: "the JWT key id is empty: set it to the id of the inbox key")) {
            try TokenMinter(config: cfg, clock: clock)
        }
        let minter = try TokenMinter(config: config(), clock: clock)
        await #expect(throws: TokenMinterError.missingUser) { try await minter.mint(for: "") }
    }
}
