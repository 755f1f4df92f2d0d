import Foundation

/// Who a request comes from, as the server vouches for it: the server key it authenticated. Never read from the wire
/// (an HTTP transport sends no such field and the server sets it only after checking the key), so a client cannot
/// claim one. nil: a terminal's own embedded engine, whose one user owns it.
public struct APICaller: Sendable, Hashable {
    public var keyId: String
    public var name: String
    public var role: KeyRole
    /// The client's address as the server saw it (without its port): what the audit trail records as "from where";
    /// set by the server after the key was checked.
    public var address: String? = nil
    /// Whether this caller sees phone numbers and email addresses masked (`NumberMasking`): a viewer key on a server
    /// started with `--mask-numbers-for-viewers`; set by the server after the key was checked.
    public var masksNumbers = false

    public init(keyId: String, name: String, role: KeyRole) {
        self.keyId = keyId
        self.name = name
        self.role = role
    }
}
