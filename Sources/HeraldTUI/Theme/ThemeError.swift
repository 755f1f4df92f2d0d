/// A theme that could not be loaded, with the file and what was wrong.
nonisolated public struct ThemeError: Error, Equatable, CustomStringConvertible {
    public let source: String
    public let problem: String
    public init(source: String, problem: String) { self.source = source; self.problem = problem }
    public var description: String { "theme \(source): \(problem)" }
}
