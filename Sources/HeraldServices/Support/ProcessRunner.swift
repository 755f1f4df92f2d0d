import Foundation
import Logging

/// The outcome of a program that ran to its end.
public struct ProcessOutcome: Sendable, Hashable {
    /// Exit status, or the signal number when `killedBySignal`.
    public var status: Int32
    public var killedBySignal: Bool
    public var stdout: String
    public var stderr: String

    public var succeeded: Bool { status == 0 && !killedBySignal }
}

/// Runs a program with Foundation's `Process`, feeds it `input` on stdin and collects its output,
/// without blocking a Swift concurrency thread.
enum ProcessRunner {
    private static let log = Logger(label: "herald.process")

    private static let ignoreSigpipe: Void = {
        // A program that exits before reading all of stdin must not kill Herald with SIGPIPE:
        // the write fails with EPIPE instead and the program's exit status is reported.
        _ = signal(SIGPIPE, SIG_IGN)
    }()

    static func run(_ command: ExternalCommand, input: Data,
                    environment: [String: String] = ProcessInfo.processInfo.environment) async throws -> ProcessOutcome {
        let path: String
        switch ProgramLocator.locate(command.program, environment: environment) {
        case .available(let found): path = found
        case .unavailable(let reason): throw ExternalCommandError.unavailable(program: command.program, reason: reason)
        }
        _ = ignoreSigpipe

        let group = DispatchGroup()
        var attempt = 0
        var launched: (process: Process, stdin: Pipe, stdout: Pipe, stderr: Pipe)?
        while launched == nil {
            let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = command.arguments
            process.environment = environment
            process.standardInput = stdin
            process.standardOutput = stdout
            process.standardError = stderr
            group.enter()
            process.terminationHandler = { _ in group.leave() }
            do {
                try process.run()
                launched = (process, stdin, stdout, stderr)
            } catch {
                group.leave()
                attempt += 1
                // ETXTBSY: the program file is still open for writing somewhere (it was just
                // installed, or a child forked meanwhile holds it); it clears within moments.
                if posixCode(of: error) == ETXTBSY, attempt < 5 {
                    try? await Task.sleep(nanoseconds: 20_000_000 * UInt64(attempt))
                    continue
                }
                throw ExternalCommandError.couldNotStart(program: command.program, reason: describe(error))
            }
        }
        guard let (process, stdin, stdout, stderr) = launched else {
            throw ExternalCommandError.couldNotStart(program: command.program, reason: "it did not start")
        }
        let collected = Collected()
        group.enter()
        DispatchQueue.global().async {
            let data = stdout.fileHandleForReading.readDataToEndOfFile()
            collected.set(stdout: data)
            group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            let data = stderr.fileHandleForReading.readDataToEndOfFile()
            collected.set(stderr: data)
            group.leave()
        }
        let program = command.program
        group.enter()
        DispatchQueue.global().async {
            // A program may exit before reading all of its input (EPIPE): its exit status says whether
            // it did its job; the write failure is logged, never taken for success or failure by itself.
            let writer = stdin.fileHandleForWriting
            do { try writer.write(contentsOf: input) } catch {
                Self.log.warning("the program did not take all of its input",
                                 metadata: ["program": "\(program)", "bytes": "\(input.count)", "error": "\(Self.describe(error))"])
            }
            do { try writer.close() } catch {
                Self.log.warning("could not close the program's input", metadata: ["program": "\(program)", "error": "\(Self.describe(error))"])
            }
            group.leave()
        }
        return await withCheckedContinuation { continuation in
            group.notify(queue: .global()) {
                let (out, err) = collected.values
                continuation.resume(returning: ProcessOutcome(
                    status: process.terminationStatus,
                    killedBySignal: process.terminationReason == .uncaughtSignal,
                    stdout: String(decoding: out, as: UTF8.self),
                    stderr: String(decoding: err, as: UTF8.self)))
            }
        }
    }

    private static func posixCode(of error: any Error) -> Int32? {
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return Int32(ns.code) }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return Int32(underlying.code)
        }
        return nil
    }

    private static func describe(_ error: any Error) -> String {
        if let code = posixCode(of: error) { return String(cString: strerror(code)) }
        return error.localizedDescription
    }

    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var out = Data()
        private var err = Data()
        func set(stdout: Data) { lock.withLock { out = stdout } }
        func set(stderr: Data) { lock.withLock { err = stderr } }
        var values: (Data, Data) { lock.withLock { (out, err) } }
    }
}
