import HeraldStore

/// An error a person at the keyboard can cause, with a message that says what was wrong and
/// what to do about it.
public protocol UserFacingError: Error, CustomStringConvertible {
    var userMessage: String { get }
}

extension UserFacingError {
    public var description: String { userMessage }
}

/// The text to show a person for any error: the user-facing message when there is one,
/// otherwise the error's description.
public func userMessage(for error: any Error) -> String {
    if let known = error as? any UserFacingError { return known.userMessage }
    if let storage = StorageFailure.message(for: error) { return storage }
    return String(describing: error)
}
