import Foundation
import Logging

/// How text reaches the system clipboard.
public enum ClipboardMethod: Sendable, Hashable {
    /// The OSC 52 escape, written to the terminal by the UI thread (works over SSH).
    case osc52
    /// A program that reads the text on stdin (`wl-copy`, `xclip -selection clipboard`, `pbcopy`).
    case command(ExternalCommand)
    /// The best way there is: the configured program (`[share] clipboard_command`); inside tmux, tmux's buffer (which
    /// tmux also hands to the outer terminal) plus OSC 52; else wl-copy, xclip or pbcopy when present; else OSC 52.
    case automatic(configured: ExternalCommand?)
}

/// What the caller must do to finish a copy, and which way the text went.
public enum ClipboardOutcome: Sendable, Hashable {
    /// Write these bytes (OSC 52) to the terminal (services never write to the terminal themselves). `alsoVia` names
    /// where the text already went besides (tmux's buffer); nil: the terminal is the only way.
    case writeToTerminal([UInt8], alsoVia: String? = nil)
    /// A clipboard program took the text; nothing left to do.
    case copied(via: String)
}

/// Why a copy failed.
public enum ClipboardError: Error, Sendable, Equatable, UserFacingError {
    case tooLarge(bytes: Int, limit: Int)
    case commandFailed(String)

    public var userMessage: String {
        switch self {
        case .tooLarge(let bytes, let limit):
            return "the text is too large to copy through the terminal (\(bytes) bytes, at most \(limit)); set [share] clipboard_command instead"
        case .commandFailed(let reason):
            return "could not copy: \(reason)"
        }
    }
}

/// Copies text to the clipboard through OSC 52, tmux or a clipboard program.
public struct Clipboard: Sendable {
    /// Terminals cap OSC 52 payloads (xterm and tmux near 100 kB); larger texts are refused.
    public static let osc52Limit = 74_994

    public let method: ClipboardMethod
    private let environment: [String: String]

    public init(method: ClipboardMethod, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.method = method
        self.environment = environment
    }

    var insideTmux: Bool { !(environment["TMUX"] ?? "").isEmpty }

    /// Copies `text`: runs the clipboard program, or returns the bytes to write for OSC 52.
    public func copy(_ text: String) async throws -> ClipboardOutcome {
        switch method {
        case .osc52:
            return .writeToTerminal(try Self.osc52Bytes(for: text))
        case .command(let command):
            try await run(command, text)
            return .copied(via: command.program)
        case .automatic(let configured):
            if let configured {
                try await run(configured, text)
                return .copied(via: configured.program)
            }
            if insideTmux, ExternalCommand(program: "tmux").availability(environment: environment).isAvailable {
                // `-w` also sets the outer terminal's clipboard (tmux 3.2+); an older tmux takes the buffer alone.
                let loads = [["load-buffer", "-w", "-"], ["load-buffer", "-"]].map { ExternalCommand(program: "tmux", arguments: $0) }
                for load in loads where await tried(load, text) {
                    // Too large for OSC 52: tmux's buffer holds it, and nothing is written to the terminal.
                    return .writeToTerminal((try? Self.osc52Bytes(for: text)) ?? [], alsoVia: "tmux's buffer")
                }
            }
            for program in Self.clipboardPrograms(environment) where program.availability(environment: environment).isAvailable {
                if await tried(program, text) { return .copied(via: program.program) }
            }
            return .writeToTerminal(try Self.osc52Bytes(for: text))
        }
    }

    /// The desktop's clipboard programs, in the order they are tried: wl-copy under Wayland, xclip or xsel under X,
    /// pbcopy on macOS.
    static func clipboardPrograms(_ environment: [String: String]) -> [ExternalCommand] {
        var programs: [ExternalCommand] = []
        if !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty { programs.append(ExternalCommand(program: "wl-copy")) }
        if !(environment["DISPLAY"] ?? "").isEmpty {
            programs.append(ExternalCommand(program: "xclip", arguments: ["-selection", "clipboard"]))
            programs.append(ExternalCommand(program: "xsel", arguments: ["--clipboard", "--input"]))
        }
        #if os(macOS)
        programs.append(ExternalCommand(program: "pbcopy"))
        #endif
        return programs
    }

    /// Whether `command` took the text; a failure is logged, and the next way is tried.
    private func tried(_ command: ExternalCommand, _ text: String) async -> Bool {
        do {
            try await run(command, text)
            return true
        } catch {
            Logger(label: "herald.clipboard").warning("copying through a program failed; trying the next way", metadata: [
                "program": "\(command)", "cause": "\(userMessage(for: error))",
            ])
            return false
        }
    }

    private func run(_ command: ExternalCommand, _ text: String) async throws {
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
    }

    /// Whether copying can work: OSC 52 always can be tried; a program must exist.
    public func availability() -> ProgramAvailability {
        switch method {
        case .osc52, .automatic(nil): return .available(path: "OSC 52")
        case .command(let command), .automatic(let command?): return command.availability(environment: environment)
        }
    }

    /// `ESC ] 52 ; c ; <base64> BEL`, plain even inside tmux: tmux 3.3 drops passthrough by default, while it takes a
    /// plain OSC 52 as a buffer and hands it to the outer terminal with `set-clipboard on`.
    public static func osc52Bytes(for text: String) throws -> [UInt8] {
        let payload = Data(text.utf8).base64EncodedString()
        guard payload.utf8.count <= osc52Limit else {
            throw ClipboardError.tooLarge(bytes: text.utf8.count, limit: osc52Limit / 4 * 3)
        }
        return [0x1B] + Array("]52;c;".utf8) + Array(payload.utf8) + [0x07]
    }
}
