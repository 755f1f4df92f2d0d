import Foundation

/// An application message: `{"key", "clientMobileApplicationKey", "text", "placeholder", "clientPlaceholder"}`.
///
/// `text` is a HeraldCore `MessageTemplate`: `placeholder` (default `<>`) is replaced by a short link unique
/// to each recipient (appended when the text has none), and the `{SENDER_NAME}`-style client fields are filled
/// from a destination's `clientData` in `ClientField` order. `clientPlaceholder` lists, comma-separated, the
/// client fields the text uses (the engine computes it).
public struct ApplicationMessage: Codable, Sendable, Hashable {
    public var key: String
    public var clientMobileApplicationKey: String
    public var text: String
    public var placeholder: String
    public var clientPlaceholder: String?

    public init(key: String, clientMobileApplicationKey: String, text: String, placeholder: String = "<>",
                clientPlaceholder: String? = nil) {
        self.key = key
        self.clientMobileApplicationKey = clientMobileApplicationKey
        self.text = text
        self.placeholder = placeholder
        self.clientPlaceholder = clientPlaceholder
    }
}

/// Body of a message create (POST) or update (PUT). Nil fields keep their current value on update
/// (on create: a generated key, `<>`; `text` is required on create).
public struct ApplicationMessageBody: Codable, Sendable, Hashable {
    /// Only on create: the key to use; generated when nil.
    public var key: String?
    public var text: String?
    public var placeholder: String?

    public init(key: String? = nil, text: String? = nil, placeholder: String? = nil) {
        self.key = key
        self.text = text
        self.placeholder = placeholder
    }
}

/// `GET /1/social-invite/application/{applicationKey}/message/{messageId}` with `App <application secret>`.
public struct GetApplicationMessage: Endpoint {
    public typealias Body = EmptyBody
    public typealias Response = ApplicationMessage
    public static let method = HTTPMethod.get
    public static let path: PathTemplate = "/1/social-invite/application/{applicationKey}/message/{messageId}"

    public var secret: String
    public var applicationKey: String
    public var messageId: String

    public init(secret: String, applicationKey: String, messageId: String) {
        self.secret = secret
        self.applicationKey = applicationKey
        self.messageId = messageId
    }

    public var credential: Credential { .app(secret) }
    public var pathParameters: [String: String] { ["applicationKey": applicationKey, "messageId": messageId] }
    public var body: EmptyBody? { nil }
}

/// `POST /1/social-invite/application/{applicationKey}/message` (Herald's) with `App <application secret>`.
public struct CreateApplicationMessage: Endpoint {
    public typealias Response = ApplicationMessage
    public static let method = HTTPMethod.post
    public static let path: PathTemplate = "/1/social-invite/application/{applicationKey}/message"

    public var secret: String
    public var applicationKey: String
    public var payload: ApplicationMessageBody

    public init(secret: String, applicationKey: String, body: ApplicationMessageBody) {
        self.secret = secret
        self.applicationKey = applicationKey
        self.payload = body
    }

    public var credential: Credential { .app(secret) }
    public var pathParameters: [String: String] { ["applicationKey": applicationKey] }
    public var body: ApplicationMessageBody? { payload }
}

/// `PUT /1/social-invite/application/{applicationKey}/message/{messageId}` (Herald's); 403 when the
/// application does not allow message editing.
public struct UpdateApplicationMessage: Endpoint {
    public typealias Response = ApplicationMessage
    public static let method = HTTPMethod.put
    public static let path: PathTemplate = "/1/social-invite/application/{applicationKey}/message/{messageId}"

    public var secret: String
    public var applicationKey: String
    public var messageId: String
    public var payload: ApplicationMessageBody

    public init(secret: String, applicationKey: String, messageId: String, body: ApplicationMessageBody) {
        self.secret = secret
        self.applicationKey = applicationKey
        self.messageId = messageId
        self.payload = body
    }

    public var credential: Credential { .app(secret) }
    public var pathParameters: [String: String] { ["applicationKey": applicationKey, "messageId": messageId] }
    public var body: ApplicationMessageBody? { payload }
}
