import Foundation

/// A program run to its end: its exit status and what it printed (stdout, and stderr too when `withErrors`).
struct ProgramRun {
    let status: Int32
    let output: String

    init(_ executable: String, _ arguments: [String], environment: [String: String]? = nil, withErrors: Bool = true) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = withErrors ? out : FileHandle.nullDevice
        let exit = try ChildExit(running: process)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        // Foundation may miss a child's exit under load; ChildExit reaps it itself, and never waits for good.
        status = try exit.status(timeout: 300, "\(URL(fileURLWithPath: executable).lastPathComponent) \(arguments.prefix(2).joined(separator: " "))")
        output = String(decoding: data, as: UTF8.self)
    }
}
