import Foundation

/// How text reaches the system clipboard.
public enum ClipboardMethod: Sendable, Hashable {
    /// The OSC 52 escape, written to the terminal by the UI thread (works over SSH).
    case osc52
    /// A program that reads the text on stdin (`wl-copy`, `xclip -selection clipboard`, `pbcopy`).
    case command(ExternalCommand)
}

/// What the caller must do to finish a copy.
public enum ClipboardOutcome: Sendable, Hashable {
    /// Write these bytes to the terminal (services never write to the terminal themselves).
    case writeToTerminal([UInt8])
    /// The clipboard program took the text; nothing left to do.
    case copied
}

/// Why a copy failed.
public enum ClipboardError: Error, Sendable, Equatable, UserFacingError {
    case tooLarge(bytes: Int, limit: Int)
    case commandFailed(String)

    public var userMessage: String {
        switch self {
        case .tooLarge(let bytes, let limit):
            return "the text is too large to copy through the terminal (\(bytes) bytes, at most \(limit)); configure clipboard.command instead"
        case .commandFailed(let reason):
            return "could not copy: \(reason)"
        }
    }
}

/// Copies text to the clipboard through OSC 52 or a clipboard program.
public struct Clipboard: Sendable {
    /// Terminals cap OSC 52 payloads (xterm and tmux near 100 kB); larger texts are refused.
    public static let osc52Limit = 74_994

    public let method: ClipboardMethod
    private let environment: [String: String]

    public init(method: ClipboardMethod, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.method = method
        self.environment = environment
    }

    /// Copies `text`: returns the bytes to write for OSC 52, or runs the clipboard program.
    public func copy(_ text: String) async throws -> ClipboardOutcome {
        switch method {
        case .osc52:
            return .writeToTerminal(try Self.osc52Bytes(for: text, insideTmux: environment["TMUX"].map { !$0.isEmpty } ?? false))
        case .command(let command):
            let outcome: ProcessOutcome
            do {
                outcome = try await ProcessRunner.run(command, input: Data(text.utf8), environment: environment)
            } catch {
                throw ClipboardError.commandFailed(userMessage(for: error))
            }
            guard outcome.succeeded else {
                throw ClipboardError.commandFailed(ExternalCommandError.failed(
                    program: command.program, status: outcome.status, stderr: outcome.stderr).userMessage)
            }
            return .copied
        }
    }

    /// Whether copying can work: OSC 52 always can be tried; a program must exist.
    public func availability() -> ProgramAvailability {
        switch method {
        case .osc52: return .available(path: "OSC 52")
        case .command(let command): return command.availability(environment: environment)
        }
    }

    /// `ESC ] 52 ; c ; <base64> BEL`; inside tmux wrapped as `ESC P tmux; ESC <seq> ESC \`
    /// (every ESC of the inner sequence doubled, which for this sequence is its first byte).
    public static func osc52Bytes(for text: String, insideTmux: Bool) throws -> [UInt8] {
        let payload = Data(text.utf8).base64EncodedString()
        guard payload.utf8.count <= osc52Limit else {
            throw ClipboardError.tooLarge(bytes: text.utf8.count, limit: osc52Limit / 4 * 3)
        }
        let esc: UInt8 = 0x1B, bel: UInt8 = 0x07
        let sequence = [esc] + Array("]52;c;".utf8) + Array(payload.utf8) + [bel]
        guard insideTmux else { return sequence }
        let doubled = sequence.flatMap { $0 == esc ? [esc, esc] : [$0] }
        return [esc] + Array("Ptmux;".utf8) + doubled + [esc, UInt8(ascii: "\\")]
    }
}
