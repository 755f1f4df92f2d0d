import HeraldAPI
import HeraldServices

/// What to tell the person when the inbox cannot be read: the failure and the fix, in one line.
nonisolated public enum InboxAuthAdvice {
    /// A message for an inbox failure; auth failures name the config keys to set.
    public static func message(for error: any Error) -> String {
        guard let inbox = error as? InboxError else { return userMessage(for: error) }
        switch inbox {
        case .tokenRefused(_, let keyIdKey, let secretKey):
            return "the inbox refused the token: check \(keyIdKey) / \(secretKey)"
        case .accessTokenMissing:
            return "this application requires JWT: set inbox.jwt_key_id and inbox.jwt_secret in config.toml "
                + "(or HERALD_INBOX_JWT_KEY_ID / HERALD_INBOX_JWT_SECRET)"
        case .applicationCodeRefused:
            return "the inbox refused the application code: this application may require JWT; "
                + "set inbox.jwt_key_id and inbox.jwt_secret in config.toml"
        case .platform(.unauthorized):
            return "the inbox refused the token: check inbox.jwt_key_id / inbox.jwt_secret"
        case .platform(.accessTokenMissing):
            return "this application requires JWT: set inbox.jwt_key_id and inbox.jwt_secret in config.toml"
        default:
            return inbox.userMessage
        }
    }
}
