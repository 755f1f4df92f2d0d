import Foundation
import HeraldCore
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

/// Runs a program (`SpawnedChild`, not Foundation's `Process`, which crashes now and then on Linux), feeds it `input`
/// on stdin and collects its output, without blocking a Swift concurrency thread.
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
        var attempt = 0
        let child: SpawnedChild
        while true {
            do {
                child = try SpawnedChild(path: path, arguments: command.arguments, environment: environment)
                break
            } catch let code {
                attempt += 1
                // ETXTBSY: the program file is still open for writing somewhere (it was just
                // installed, or a child forked meanwhile holds it); it clears within moments.
                if code.value == ETXTBSY, attempt < 5 {
                    try? await Task.sleep(nanoseconds: 20_000_000 * UInt64(attempt))
                    continue
                }
                throw ExternalCommandError.couldNotStart(program: command.program, reason: code.description)
            }
        }
        let group = DispatchGroup()
        let collected = Collected()
        group.enter()
        OwnThread.run {
            collected.set(stdout: child.stdout.readDataToEndOfFile())
            group.leave()
        }
        group.enter()
        OwnThread.run {
            collected.set(stderr: child.stderr.readDataToEndOfFile())
            group.leave()
        }
        let program = command.program
        group.enter()
        OwnThread.run {
            // A program may exit before reading all of its input (EPIPE): its exit status says whether
            // it did its job; the write failure is logged, never taken for success or failure by itself.
            do { try child.stdin.write(contentsOf: input) } catch {
                Self.log.warning("the program did not take all of its input",
                                 metadata: ["program": "\(program)", "bytes": "\(input.count)", "error": "\(Self.describe(error))"])
            }
            do { try child.stdin.close() } catch {
                Self.log.warning("could not close the program's input", metadata: ["program": "\(program)", "error": "\(Self.describe(error))"])
            }
            group.leave()
        }
        group.enter()
        OwnThread.run {
            collected.set(exit: child.waitForExit())
            group.leave()
        }
        return await withCheckedContinuation { continuation in
            group.notify(queue: .global()) {
                let (out, err, exit) = collected.values
                continuation.resume(returning: ProcessOutcome(
                    status: exit.status, killedBySignal: exit.killedBySignal,
                    stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self)))
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
        private var exit: (status: Int32, killedBySignal: Bool) = (0, false)
        func set(stdout: Data) { lock.withLock { out = stdout } }
        func set(stderr: Data) { lock.withLock { err = stderr } }
        func set(exit: (status: Int32, killedBySignal: Bool)) { lock.withLock { self.exit = exit } }
        var values: (Data, Data, (status: Int32, killedBySignal: Bool)) { lock.withLock { (out, err, exit) } }
    }
}
