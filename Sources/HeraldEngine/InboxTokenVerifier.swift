import Foundation
import HeraldAPI
import JWTKit

/// The claims of an inbox JWT. All are checked by `InboxTokenVerifier` with the engine's clock,
/// so `verify(using:)` does nothing.
struct InboxTokenClaims: JWTPayload {
    var typ: String?
    var sub: String?
    var apiKey: String?
    var iat: Double?
    var exp: Double?
    var jti: String?
    var iss: String?

    enum CodingKeys: String, CodingKey {
        case typ, sub, iat, exp, jti, iss
        case apiKey = "infobip-api-key"
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// Checks inbox tokens: HS256 only (the header is read before anything is verified), a known `kid`,
/// the signature, then every claim against the injected time.
enum InboxTokenVerifier {
    struct Header: Decodable {
        var alg: String?
        var typ: String?
        var kid: String?
    }

    /// The unverified parts a verification starts from; nil when the token is not a well-formed HS256 JWT.
    struct Unverified {
        var keyId: String
        var applicationCode: String
    }

    static func inspect(_ token: String) -> Unverified? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[2].isEmpty,
              let headerData = base64URLDecode(parts[0]), let payloadData = base64URLDecode(parts[1]),
              let header = try? JSONDecoder().decode(Header.self, from: headerData),
              header.alg == "HS256", header.typ == nil || header.typ?.uppercased() == "JWT",
              let kid = header.kid, !kid.isEmpty,
              let claims = try? JSONDecoder().decode(InboxTokenClaims.self, from: payloadData),
              let code = claims.apiKey, !code.isEmpty else { return nil }
        return Unverified(keyId: kid, applicationCode: code)
    }

    /// The verified claims, nil when the signature does not match `secret` (which must be ≥ 32 bytes).
    static func verifySignature(_ token: String, keyId: String, secret: [UInt8]) async -> InboxTokenClaims? {
        guard secret.count >= PlatformEngine.minimumJWTSecretBytes else { return nil }
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256, kid: JWKIdentifier(string: keyId))
        return try? await keys.verify(token, as: InboxTokenClaims.self)
    }

    /// Whether the claims let `externalUserId` of the application `applicationCode` read at `now`.
    /// Returns the jti (to be recorded as used) when they do.
    static func check(_ claims: InboxTokenClaims, externalUserId: String, applicationCode: String, now: Date) -> String? {
        guard claims.typ == "Bearer", claims.sub == externalUserId, claims.apiKey == applicationCode,
              let iat = claims.iat, let exp = claims.exp, let jti = claims.jti, !jti.isEmpty else { return nil }
        let t = now.timeIntervalSince1970
        guard iat <= t, exp > t else { return nil }
        return jti
    }

    static func base64URLDecode(_ text: Substring) -> Data? {
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !s.contains("=") else { return nil }
        while s.count % 4 != 0 { s += "=" }
        return Data(base64Encoded: s)
    }
}
