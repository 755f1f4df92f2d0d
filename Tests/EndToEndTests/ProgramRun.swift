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
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        status = process.terminationStatus
        output = String(decoding: data, as: UTF8.self)
    }
}
