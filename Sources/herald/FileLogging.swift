import Foundation
import Logging

/// swift-log to a file (append), for every command: nothing is ever written to the screen while the
/// UI runs, and a command's own output (stderr included) stays what it says to the person.
struct FileLogHandler: LogHandler {
    private let sink: LogSink
    private let label: String
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    init(label: String, sink: LogSink) {
        self.label = label
        self.sink = sink
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        sink.write(level: event.level, label: label, message: "\(event.message)",
                   metadata: metadata.merging(event.metadata ?? [:]) { _, new in new })
    }
}

/// Where log lines go and how they look, shared by every handler. Each line is one `write(2)` on a descriptor
/// opened with `O_APPEND`, so processes sharing a log file (replicas on one host) never interleave partial lines.
final class LogSink: @unchecked Sendable {
    enum Format: String, CaseIterable { case text, json }

    private let lock = NSLock()
    private var descriptor: Int32
    private var format = Format.text
    /// Added to every line (the replica's name and pid on a server).
    private var fields: [(String, String)] = []

    /// Why nothing can be logged (the folder or the file could not be made), nil when logs are written.
    private(set) var problem: String?

    /// Opens (creating, 0600) `url` for appending; when it cannot be opened, logs are dropped and `problem` says why.
    init(url: URL) {
        var folderProblem: String?
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            folderProblem = "cannot make the log folder \(url.deletingLastPathComponent().path): \(error.localizedDescription)"
        }
        descriptor = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        if descriptor < 0 { problem = folderProblem ?? "cannot open the log file \(url.path): \(String(cString: strerror(errno)))" }
    }

    /// Sends every line to standard error in `format` from now on, each with `fields`.
    func redirectToStandardError(format: Format, fields: [(String, String)]) {
        lock.withLock {
            if descriptor > 2 { close(descriptor) }
            descriptor = STDERR_FILENO
            self.format = format
            self.fields = fields
        }
    }

    func write(level: Logger.Level, label: String, message: String, metadata: Logger.Metadata) {
        let time = ISO8601DateFormatter.string(from: Date(), timeZone: .current, formatOptions: [.withInternetDateTime, .withFractionalSeconds])
        lock.withLock {
            guard descriptor >= 0 else { return }
            let line: String
            switch format {
            case .text:
                let all = fields.map { "\($0.0)=\($0.1)" } + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                line = "\(time) \(level) \(label): \(Self.oneLine(message))\(all.isEmpty ? "" : " " + all.joined(separator: " ").replacingOccurrences(of: "\n", with: " "))\n"
            case .json:
                var object: [String: String] = ["time": time, "level": "\(level)", "label": label, "message": message]
                for (key, value) in fields { object[key] = value }
                for (key, value) in metadata where object[key] == nil { object[key] = "\(value)" }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                guard let data = try? encoder.encode(object) else { return }
                line = String(decoding: data, as: UTF8.self) + "\n"
            }
            Self.writeAll(descriptor, Array(line.utf8))
        }
    }

    private static func oneLine(_ text: String) -> String {
        text.contains("\n") ? text.replacingOccurrences(of: "\n", with: " ") : text
    }

    /// One `write(2)` for the line (again for what a signal cut short).
    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return }
            offset += n
        }
    }
}

enum FileLogging {
    /// The sink every logger of the process writes to.
    nonisolated(unsafe) private(set) static var sink: LogSink?

    /// Sends every logger of the process to `url`. Called once, before any command runs.
    static func bootstrap(file url: URL) {
        let sink = LogSink(url: url)
        Self.sink = sink
        LoggingSystem.bootstrap { label in FileLogHandler(label: label, sink: sink) }
    }
}
