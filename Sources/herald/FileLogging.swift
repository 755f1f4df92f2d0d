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
        let level = event.level, message = event.message
        let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let meta = all.isEmpty ? "" : " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        sink.write("\(ISO8601DateFormatter.string(from: Date(), timeZone: .current, formatOptions: [.withInternetDateTime, .withFractionalSeconds])) \(level) \(label): \(message)\(meta)\n")
    }
}

/// The open log file, shared by every handler; writes are serialised.
final class LogSink: @unchecked Sendable {
    private let lock = NSLock()
    private let handle: FileHandle?

    /// Opens (creating) `url` for appending; nil handle (logs dropped) when it cannot be opened.
    init(url: URL) {
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: url.path) {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        handle = try? FileHandle(forWritingTo: url)
        _ = try? handle?.seekToEnd()
    }

    func write(_ text: String) {
        lock.withLock { handle?.write(Data(text.utf8)) }
    }
}

enum FileLogging {
    /// Sends every logger of the process to `url`. Called once, before any command runs.
    static func bootstrap(file url: URL) {
        let sink = LogSink(url: url)
        LoggingSystem.bootstrap { label in FileLogHandler(label: label, sink: sink) }
    }
}
