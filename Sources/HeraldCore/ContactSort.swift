/// How a list of people is ordered.
public enum ContactSort: String, Sendable, CaseIterable, Codable {
    case firstName = "first"
    case lastName = "last"
}
