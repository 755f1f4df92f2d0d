import Foundation

/// A program and its arguments, as configured ("msmtp -t", "xclip -selection clipboard").
public struct ExternalCommand: Sendable, Hashable, CustomStringConvertible {
    public var program: String
    public var arguments: [String]

    public init(program: String, arguments: [String] = []) {
        self.program = program
        self.arguments = arguments
    }

    /// Splits a configured command line into words. Single and double quotes group words and
    /// a backslash escapes the next character; nothing is expanded (no variables, no globs).
    public init(parsing line: String) throws {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaping = false
        for ch in line {
            if escaping {
                current.append(ch)
                escaping = false
                continue
            }
            if let q = quote {
                if ch == q { quote = nil } else if ch == "\\" && q == "\"" { escaping = true } else { current.append(ch) }
                continue
            }
            switch ch {
            case "\\": escaping = true; inWord = true
            case "'", "\"": quote = ch; inWord = true
            case " ", "\t":
                if inWord { words.append(current); current = ""; inWord = false }
            case "\n", "\r":
                throw ExternalCommandError.invalidCommand(line: line, problem: "it contains a line break")
            default:
                current.append(ch); inWord = true
            }
        }
        if quote != nil || escaping {
            throw ExternalCommandError.invalidCommand(line: line, problem: "a quote or backslash is not closed")
        }
        if inWord { words.append(current) }
        guard let first = words.first, !first.isEmpty else {
            throw ExternalCommandError.invalidCommand(line: line, problem: "it is empty")
        }
        self.program = first
        self.arguments = Array(words.dropFirst())
    }

    public var description: String { ([program] + arguments).joined(separator: " ") }

    /// Where the program is, or why it cannot be run.
    public func availability(environment: [String: String] = ProcessInfo.processInfo.environment) -> ProgramAvailability {
        ProgramLocator.locate(program, environment: environment)
    }
}

/// Whether a program can be run.
public enum ProgramAvailability: Sendable, Hashable {
    case available(path: String)
    case unavailable(reason: String)

    public var isAvailable: Bool {
        if case .available = self { return true }
        return false
    }
}

/// Problems with a configured command or with running it.
public enum ExternalCommandError: Error, Sendable, Equatable, UserFacingError {
    case invalidCommand(line: String, problem: String)
    case unavailable(program: String, reason: String)
    case couldNotStart(program: String, reason: String)
    /// The program ran and exited with a non-zero status (or was killed by a signal).
    case failed(program: String, status: Int32, stderr: String)

    public var userMessage: String {
        switch self {
        case .invalidCommand(let line, let problem):
            return "cannot use the command \"\(line)\": \(problem)"
        case .unavailable(_, let reason):
            return reason
        case .couldNotStart(let program, let reason):
            return "could not start \(program): \(reason)"
        case .failed(let program, let status, let stderr):
            let detail = stderr.trimmingCharacters(in: .whitespacesAndNewlines)
            return "\(program) failed with exit status \(status)" + (detail.isEmpty ? "" : ": \(detail)")
        }
    }
}

/// Finds programs the way a shell does: a name with a slash is a path, others are looked up on PATH.
enum ProgramLocator {
    static func locate(_ program: String, environment: [String: String]) -> ProgramAvailability {
        let fm = FileManager.default
        if program.contains("/") {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: program, isDirectory: &isDir) else {
                return .unavailable(reason: "\(program) does not exist")
            }
            guard !isDir.boolValue, fm.isExecutableFile(atPath: program) else {
                return .unavailable(reason: "\(program) is not an executable file")
            }
            return .available(path: program)
        }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        var notExecutable: String?
        for dir in path.split(separator: ":", omittingEmptySubsequences: false) {
            let folder = dir.isEmpty ? "." : String(dir)
            let candidate = folder + "/" + program
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: candidate, isDirectory: &isDir), !isDir.boolValue else { continue }
            if fm.isExecutableFile(atPath: candidate) { return .available(path: candidate) }
            notExecutable = notExecutable ?? candidate
        }
        if let notExecutable {
            return .unavailable(reason: "\(notExecutable) is not executable")
        }
        return .unavailable(reason: "\(program) was not found on PATH; install it or configure the full path of the program")
    }
}
