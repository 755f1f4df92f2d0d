import Foundation
import HeraldCore
import JWTKit

/// What the inbox JWT is made from. Each value names the config key it came from, so an error
/// can tell the person which line of `config.toml` (or which variable) to fix.
public struct InboxTokenConfig: Sendable, Hashable {
    /// The key id sent as the JWT header's `kid`.
    public var keyId: String
    /// The key's secret, hex-encoded (at least 32 bytes once decoded).
    public var secretHex: String
    /// The application code: `infobip-api-key` and `iss` claims.
    public var applicationCode: String
    /// How long a token is valid.
    public var lifetime: TimeInterval
    /// Where `keyId`, `secretHex` and `applicationCode` were configured, for error messages.
    public var keyIdConfigKey: String
    public var secretConfigKey: String
    public var applicationCodeConfigKey: String

    public init(keyId: String, secretHex: String, applicationCode: String, lifetime: TimeInterval = 300,
                keyIdConfigKey: String = "inbox.jwt_key_id",
                secretConfigKey: String = "inbox.jwt_secret",
                applicationCodeConfigKey: String = "inbox.application_code") {
        self.keyId = keyId
        self.secretHex = secretHex
        self.applicationCode = applicationCode
        self.lifetime = lifetime
        self.keyIdConfigKey = keyIdConfigKey
        self.secretConfigKey = secretConfigKey
        self.applicationCodeConfigKey = applicationCodeConfigKey
    }
}

/// Why a token could not be made.
public enum TokenMinterError: Error, Sendable, Equatable, UserFacingError {
    /// A configured value is missing or malformed; `configKey` names where it is set.
    case invalidConfig(configKey: String, problem: String)
    /// The user id is empty.
    case missingUser
    /// The lifetime is not positive.
    case invalidLifetime(TimeInterval)

    public var userMessage: String {
        switch self {
        case .invalidConfig(let key, let problem):
            return "\(key): \(problem)"
        case .missingUser:
            return "cannot make an inbox token without an external user id: pass the user whose inbox to read"
        case .invalidLifetime(let seconds):
            return "inbox token lifetime must be a positive number of seconds, got \(seconds)"
        }
    }
}

/// The claims of an inbox token, named as the Mobile Messaging inbox expects them.
public struct InboxTokenClaims: JWTPayload, Equatable {
    /// Always "Bearer".
    public var typ: String
    /// The external user id.
    public var sub: String
    public var infobipApiKey: String
    public var iss: String
    public var iat: Date
    public var exp: Date
    public var jti: String

    enum CodingKeys: String, CodingKey {
        case typ, sub, iss, iat, exp, jti
        case infobipApiKey = "infobip-api-key"
    }

    public init(typ: String = "Bearer", sub: String, infobipApiKey: String, iss: String, iat: Date, exp: Date, jti: String) {
        self.typ = typ
        self.sub = sub
        self.infobipApiKey = infobipApiKey
        self.iss = iss
        self.iat = iat
        self.exp = exp
        self.jti = jti
    }

    /// Checks the mandatory claims. Expiry depends on whose clock reads it: see `isExpired(at:)`.
    public func verify(using algorithm: some JWTAlgorithm) async throws {
        guard typ == "Bearer" else { throw JWTError.claimVerificationFailure(failedClaim: nil, reason: "typ is not Bearer") }
        guard !sub.isEmpty, !infobipApiKey.isEmpty, !jti.isEmpty else {
            throw JWTError.claimVerificationFailure(failedClaim: nil, reason: "a mandatory claim is empty")
        }
        guard exp > iat else { throw JWTError.claimVerificationFailure(failedClaim: nil, reason: "exp is not after iat") }
    }

    /// Whether the token is expired at `date`.
    public func isExpired(at date: Date) -> Bool { date >= exp }
}

/// Mints short-lived HS256 tokens for reading a user's inbox.
public struct TokenMinter: Sendable {
    public let config: InboxTokenConfig
    private let secret: [UInt8]
    private let clock: any HeraldClock

    /// The shortest secret accepted, in bytes (the size of a SHA-256 digest).
    public static let minimumSecretBytes = 32

    /// Validates the configuration; throws an error naming the config key that is wrong.
    public init(config: InboxTokenConfig, clock: any HeraldClock = SystemClock()) throws {
        let keyId = config.keyId.trimmingCharacters(in: .whitespaces)
        guard !keyId.isEmpty else {
            throw TokenMinterError.invalidConfig(configKey: config.keyIdConfigKey,
                                                 problem: "the JWT key id is empty: set it to the id of the inbox key")
        }
        let code = config.applicationCode.trimmingCharacters(in: .whitespaces)
        guard !code.isEmpty else {
            throw TokenMinterError.invalidConfig(configKey: config.applicationCodeConfigKey,
                                                 problem: "the application code is empty: set it to the code of the application")
        }
        guard config.lifetime > 0, config.lifetime.isFinite else { throw TokenMinterError.invalidLifetime(config.lifetime) }
        self.secret = try Self.decodeSecret(config.secretHex, configKey: config.secretConfigKey)
        var cleaned = config
        cleaned.keyId = keyId
        cleaned.applicationCode = code
        self.config = cleaned
        self.clock = clock
    }

    /// A signed token for `externalUserId`, valid from now for the configured lifetime.
    public func mint(for externalUserId: String) async throws -> String {
        guard !externalUserId.isEmpty else { throw TokenMinterError.missingUser }
        let now = Date(timeIntervalSince1970: clock.now().timeIntervalSince1970.rounded(.down))
        let claims = InboxTokenClaims(sub: externalUserId, infobipApiKey: config.applicationCode,
                                      iss: config.applicationCode, iat: now,
                                      exp: now.addingTimeInterval(config.lifetime.rounded(.up)),
                                      jti: UUID().uuidString.lowercased())
        let keys = await keyCollection()
        var header = JWTHeader()
        header.alg = "HS256"
        header.typ = "JWT"
        header.kid = config.keyId
        return try await keys.sign(claims, kid: JWKIdentifier(string: config.keyId), header: header)
    }

    /// A key collection holding this minter's key, for checking tokens it made.
    public func keyCollection() async -> JWTKeyCollection {
        await JWTKeyCollection().add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256,
                                     kid: JWKIdentifier(string: config.keyId))
    }

    /// Decodes a hex secret, refusing anything JWTKit would crash on.
    static func decodeSecret(_ hex: String, configKey: String) throws -> [UInt8] {
        let text = hex.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else {
            throw TokenMinterError.invalidConfig(configKey: configKey, problem: "the JWT secret is empty: set it to the key's hex-encoded secret")
        }
        guard text.count % 2 == 0 else {
            throw TokenMinterError.invalidConfig(configKey: configKey,
                                                 problem: "the JWT secret must be hex with an even number of digits (got \(text.count) characters)")
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count / 2)
        var high: UInt8?
        for (offset, char) in text.utf8.enumerated() {
            guard let nibble = hexValue(char) else {
                throw TokenMinterError.invalidConfig(configKey: configKey,
                                                     problem: "the JWT secret must be hex (0-9, a-f); character \(offset + 1) is not")
            }
            if let h = high {
                bytes.append(h << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        guard bytes.count >= minimumSecretBytes else {
            throw TokenMinterError.invalidConfig(configKey: configKey,
                                                 problem: "the JWT secret is \(bytes.count) bytes; HS256 needs at least \(minimumSecretBytes) bytes (\(minimumSecretBytes * 2) hex digits)")
        }
        return bytes
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
