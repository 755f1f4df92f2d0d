import Foundation
import HeraldCore
import Logging

/// A program a notice is handed to: `[notify] command` (its words, then the title and the body as two more
/// arguments) or `notify-send TITLE BODY`. It is run straight (no shell, so nothing in a title is ever interpreted),
/// with nothing on its stdin, for at most `timeout` seconds (then its process group is ended); a failure is logged,
/// never shown on the screen.
public struct NoticeCommand: Sendable, Hashable {
    public var command: ExternalCommand
    public var timeout: TimeInterval

    public init(_ command: ExternalCommand, timeout: TimeInterval = 10) {
        self.command = command
        self.timeout = timeout
    }

    /// `notify-send` when it is on PATH, nil otherwise.
    public static func notifySend(environment: [String: String] = ProcessInfo.processInfo.environment) -> NoticeCommand? {
        let command = ExternalCommand(program: "notify-send", arguments: ["--app-name=Herald", "--"])
        return command.availability(environment: environment).isAvailable ? NoticeCommand(command) : nil
    }

    /// How one run ended.
    public enum Outcome: Sendable, Hashable {
        case succeeded
        case failed(String)
    }

    /// Runs the program with `notice`'s title and body; logs (`herald.notify`) and returns how it ended.
    @discardableResult
    public func run(_ notice: AttentionNotice,
                    environment: [String: String] = ProcessInfo.processInfo.environment) async -> Outcome {
        let outcome = await run(arguments: [notice.title, notice.body], environment: environment)
        if case .failed(let why) = outcome {
            Logger(label: "herald.notify").warning("the notice command failed",
                                                   metadata: ["program": "\(command.program)", "cause": "\(why)"])
        }
        return outcome
    }

    func run(arguments extra: [String], environment: [String: String]) async -> Outcome {
        let path: String
        switch command.availability(environment: environment) {
        case .available(let found): path = found
        case .unavailable(let reason): return .failed("\(command.program): \(reason)")
        }
        let child: SpawnedChild
        do { child = try SpawnedChild(path: path, arguments: command.arguments + extra, environment: environment) } catch {
            return .failed("\(command.program) could not start: \(error.description)")
        }
        try? child.stdin.close()
        let errors = StderrTail()
        OwnThread.run { _ = child.stdout.readDataToEndOfFile() }
        OwnThread.run { errors.set(child.stderr.readDataToEndOfFile()) }
        let ended = EndFlag()
        let timeout = self.timeout, pid = child.pid
        OwnThread.after(timeout) {
            guard ended.stopping() else { return }
            kill(-pid, SIGTERM)
            OwnThread.after(1) { if !ended.isSet { kill(-pid, SIGKILL) } }
        }
        let program = command.program
        return await withCheckedContinuation { continuation in
            OwnThread.run {
                let exit = child.waitForExit()
                let timedOut = ended.end()
                if exit.killedBySignal {
                    continuation.resume(returning: .failed(timedOut
                        ? "\(program) ran longer than \(String(format: "%g", timeout)) s and was stopped"
                        : "\(program) was ended by signal \(exit.status)"))
                } else if exit.status != 0 {
                    let tail = errors.text
                    continuation.resume(returning: .failed("\(program) exited with status \(exit.status)\(tail.isEmpty ? "" : ": \(tail)")"))
                } else {
                    continuation.resume(returning: .succeeded)
                }
            }
        }
    }
}

/// Whether the child ended, and whether it was stopped for running too long.
private final class EndFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var done = false
    private var stopped = false
    var isSet: Bool { lock.withLock { done } }
    /// Marks the child as being stopped; false when it had ended already (nothing to stop).
    func stopping() -> Bool { lock.withLock { if done { return false }; stopped = true; return true } }
    /// Marks the child as ended; true when it had been stopped for running too long.
    func end() -> Bool { lock.withLock { done = true; return stopped } }
}

/// The last few hundred bytes the program wrote on stderr, terminal-safe, for the log.
private final class StderrTail: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.withLock { data = value.suffix(400) } }
    var text: String {
        TerminalSafeText.sanitize(String(decoding: lock.withLock { data }, as: UTF8.self)).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
