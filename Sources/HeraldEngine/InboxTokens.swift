import Foundation
import HeraldCore
import JWTKit

extension PlatformEngine {
    /// Mints an inbox JWT for `user`, signed with the application's key `keyId` (HS256; typ Bearer,
    /// sub, infobip-api-key, iss, iat = now, exp = now + `lifetime`, a fresh jti). For the sandbox and tests;
    /// a real deployment mints tokens on the customer's backend.
    public func issueInboxToken(applicationKey: String, keyId: String, user: String,
                                lifetime: TimeInterval = 3600) async throws -> String {
        let app = try await requireApplication(applicationKey)
        guard let key = try await jwtKeys(applicationKey: applicationKey).first(where: { $0.keyId == keyId }),
              let secret = Identifiers.bytes(fromHex: key.secretHex), secret.count >= Self.minimumJWTSecretBytes else {
            throw EngineError.invalidArgument("application \(applicationKey) has no usable JWT key \(keyId)")
        }
        guard lifetime > 0 else { throw EngineError.invalidArgument("a token lifetime must be positive") }
        let now = clock.now().timeIntervalSince1970.rounded(.down)
        let claims = InboxTokenClaims(typ: "Bearer", sub: user, apiKey: app.code, iat: now, exp: now + lifetime.rounded(.up),
                                      jti: Identifiers.uuid(), iss: app.code)
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256, kid: JWKIdentifier(string: keyId))
        return try await keys.sign(claims, kid: JWKIdentifier(string: keyId), header: ["typ": "JWT"])
    }
}
