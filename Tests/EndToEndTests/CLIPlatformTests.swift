import Foundation
import HeraldTestKit
import Testing

/// The real `herald` executable run as a subprocess on a throwaway data folder, with the simulated
/// carrier sped up so a bulk settles in about a second.
final class PlatformCLI: @unchecked Sendable {
    private let folder: TempDir
    var home: URL { folder.url }
    let dataDir: URL
    let binary: URL
    /// Added to every run's environment.
    var environment: [String: String]

    /// What one run printed and how it ended.
    struct Run: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String

        /// stdout as one JSON object.
        func object() throws -> [String: Any] {
            guard let o = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any] else {
                throw CLIError("stdout is not a JSON object: \(stdout)")
            }
            return o
        }

        /// stdout as one JSON array.
        func array() throws -> [Any] {
            guard let a = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [Any] else {
                throw CLIError("stdout is not a JSON array: \(stdout)")
            }
            return a
        }

        /// True when stderr looks like a crash rather than a message.
        var crashed: Bool {
            status > 128 || ["Fatal error", "Stack dump", "Backtrace", "Segmentation fault", "Illegal instruction", "#0 0x"]
                .contains { stderr.contains($0) }
        }

        var description: String { "exit \(status)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
    }

    init(timeScale: String = "2000") throws {
        binary = try Self.locate()
        folder = try TempDir("cli")
        dataDir = try folder.folder("data")
        environment = ["HERALD_SANDBOX_TIME_SCALE": timeScale]
    }

    /// Herald's terminal UI on this workspace, in a real terminal (tmux) of `width` × `height`.
    func terminal(width: Int = 100, height: Int = 30, environment extra: [String: String] = [:]) throws -> TmuxSession {
        try TmuxSession(command: [binary.path, "--data-dir", dataDir.path], width: width, height: height,
                        environment: processEnvironment(extra))
    }

    /// The environment of a run: the parent's PATH, a private HOME and XDG folders, no HERALD_ variables
    /// but ours.
    func processEnvironment(_ extra: [String: String]) -> [String: String] {
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("HERALD_") && !$0.key.hasPrefix("XDG_") }
        env["HOME"] = home.path
        env["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        env["XDG_DATA_HOME"] = home.appendingPathComponent("xdg-data").path
        env["XDG_STATE_HOME"] = home.appendingPathComponent("state").path
        env["LANG"] = "C.UTF-8"
        env["LC_ALL"] = "C.UTF-8"
        // Fills {SENDER_NAME}: without one `herald send` refuses (a test that wants none sets it empty).
        env["HERALD_SENDER_NAME"] = "Ana"
        // Sends leave at once: the undo window has its own tests (CLISendHoldTests, UISendHoldTests), which set it.
        env["HERALD_HOLD_SECONDS"] = "0"
        for (k, v) in environment { env[k] = v }
        for (k, v) in extra { env[k] = v }
        return env
    }

    /// Prints the threads' stacks of a process that did not finish (gdb, when installed), so a hang
    /// that only shows under load leaves evidence in the test log.
    static func printStacks(of pid: Int32, args: [String]) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb") else { return }
        let gdb = Process()
        gdb.executableURL = URL(fileURLWithPath: "/usr/bin/gdb")
        gdb.arguments = ["-batch", "-p", String(pid), "-ex", "thread apply all bt 25"]
        let pipe = Pipe()
        gdb.standardOutput = pipe
        gdb.standardError = FileHandle.nullDevice
        guard (try? gdb.run()) != nil else { return }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        gdb.waitUntilExit()
        print("stacks of the unfinished herald \(args.prefix(4).joined(separator: " ")) (pid \(pid)):\n\(text)")
    }

    /// Runs `herald ARGS --data-dir DIR` to the end (at most `timeout` seconds).
    @discardableResult
    func run(_ args: [String], dataDirOption: Bool = true, env extra: [String: String] = [:], timeout: TimeInterval = 60) throws -> Run {
        let process = Process()
        process.executableURL = binary
        process.arguments = args + (dataDirOption ? ["--data-dir", dataDir.path] : [])
        process.environment = processEnvironment(extra)
        let out = home.appendingPathComponent("out-\(UUID().uuidString)")
        let err = home.appendingPathComponent("err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        let outHandle = try FileHandle(forWritingTo: out)
        let errHandle = try FileHandle(forWritingTo: err)
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        let child = try ChildExit(running: process)
        let status = child.wait(timeout: timeout)
        if status == nil {
            let running = process.isRunning
            if running { Self.printStacks(of: process.processIdentifier, args: args) }
            process.terminate()
            _ = child.wait(timeout: 5)
            let said = (try? String(contentsOf: err, encoding: .utf8)) ?? ""
            throw CLIError("herald \(args.prefix(8).joined(separator: " ")) did not finish in \(Int(timeout)) s (still running: \(running)); stderr so far: \(said)")
        }
        try outHandle.close()
        try errHandle.close()
        return Run(status: status ?? -1,
                   stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                   stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    /// Runs and requires exit 0.
    @discardableResult
    func ok(_ args: [String], env extra: [String: String] = [:], timeout: TimeInterval = 60) throws -> Run {
        let r = try run(args, env: extra, timeout: timeout)
        guard r.status == 0 else { throw CLIError("herald \(args.joined(separator: " ")) failed: \(r)") }
        return r
    }

    /// Starts a long-running `herald ARGS --data-dir DIR` whose stdout is read line by line.
    func start(_ args: [String]) throws -> RunningHerald {
        try RunningHerald(binary: binary, arguments: args + ["--data-dir", dataDir.path], environment: processEnvironment([:]))
    }

    /// `herald serve` on a free loopback port of this data folder, with a sender's and a viewer's key made first.
    func serve(_ options: [String] = [], listen: String = "127.0.0.1:0") throws
        -> (serving: RunningHerald, url: String, senderKey: String, viewerKey: String) {
        let senderKey = try #require(try ok(["serve", "keys", "create", "--role", "sender", "--json"]).object()["key"] as? String)
        let viewerKey = try #require(try ok(["serve", "keys", "create", "--role", "viewer", "--json"]).object()["key"] as? String)
        let serving = try start(["serve", "--listen", listen] + options)
        let line = try serving.waitForStderrLine(containing: "listening on http://127.0.0.1:", timeout: 30)
        return (serving, try #require(line.split(separator: " ").last.map(String.init)), senderKey, viewerKey)
    }

    /// Imports people from a vCard text; answers their contact ids by full name.
    func importContacts(_ people: [(first: String, last: String, phone: String)]) throws -> [String: Int] {
        let vcf = people.map {
            "BEGIN:VCARD\r\nVERSION:3.0\r\nN:\($0.last);\($0.first);;;\r\nFN:\($0.first) \($0.last)\r\nTEL;TYPE=CELL:\($0.phone)\r\nEND:VCARD\r\n"
        }.joined()
        let file = home.appendingPathComponent("people-\(UUID().uuidString).vcf")
        try vcf.write(to: file, atomically: true, encoding: .utf8)
        try ok(["contacts", "import", file.path, "--region", "HR"])
        let listed = try ok(["contacts", "list", "--json"]).object()
        var ids: [String: Int] = [:]
        for c in listed["contacts"] as? [[String: Any]] ?? [] {
            if let name = c["name"] as? String, let id = c["id"] as? Int { ids[name] = id }
        }
        return ids
    }

    /// `HERALD_BIN`, else the `herald` next to the test bundle in the build folder.
    static func locate() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["HERALD_BIN"], !path.isEmpty { return URL(fileURLWithPath: path) }
        var candidates: [URL] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent())
        }
        candidates += Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        if let first = CommandLine.arguments.first { candidates.append(URL(fileURLWithPath: first).deletingLastPathComponent()) }
        for dir in candidates {
            var current = dir
            for _ in 0..<4 {
                let herald = current.appendingPathComponent("herald")
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: herald.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                   FileManager.default.isExecutableFile(atPath: herald.path) {
                    return herald
                }
                current = current.deletingLastPathComponent()
            }
        }
        throw CLIError("the herald binary was not found next to the tests; run `swift build` first or set HERALD_BIN")
    }
}

/// A `herald` process that keeps running (watch); its stdout and stderr are collected as they come.
final class RunningHerald: @unchecked Sendable {
    let process = Process()
    private let condition = NSCondition()
    private var out = Data()
    private var err = Data()
    private var finished = false

    init(binary: URL, arguments: [String], environment: [String: String]) throws {
        process.executableURL = binary
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        outPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            self?.collect(handle.availableData, handle: handle, isOut: true)
        }
        errPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            self?.collect(handle.availableData, handle: handle, isOut: false)
        }
        process.terminationHandler = { [weak self] _ in
            guard let self else { return }
            self.condition.lock()
            self.finished = true
            self.condition.broadcast()
            self.condition.unlock()
        }
        try process.run()
    }

    private func collect(_ data: Data, handle: FileHandle, isOut: Bool) {
        condition.lock()
        if data.isEmpty { handle.readabilityHandler = nil } else if isOut { out.append(data) } else { err.append(data) }
        condition.broadcast()
        condition.unlock()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    var stderr: String {
        condition.lock()
        defer { condition.unlock() }
        return String(decoding: err, as: UTF8.self)
    }

    private static func completeLines(_ data: Data) -> [String] {
        let text = String(decoding: data, as: UTF8.self)
        guard let lastNewline = text.lastIndex(of: "\n") else { return [] }
        return text[..<lastNewline].split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    /// Waits (at most `timeout` seconds) until the stdout lines printed so far satisfy `done`; returns them.
    @discardableResult
    func waitForLines(timeout: TimeInterval, _ what: String, until done: ([String]) -> Bool) throws -> [String] {
        try wait(timeout: timeout, what) { out, _ in
            let lines = Self.completeLines(out)
            return done(lines) ? lines : nil
        }
    }

    /// Waits (at most `timeout` seconds) until stderr contains `text`.
    /// The first stderr line holding `text`.
    func waitForStderrLine(containing text: String, timeout: TimeInterval) throws -> String {
        try waitForStderr(text, timeout: timeout)
        return stderr.split(separator: "\n").first { $0.contains(text) }.map(String.init) ?? ""
    }

    func waitForStderr(_ text: String, timeout: TimeInterval) throws {
        _ = try wait(timeout: timeout, "stderr to say \(text)") { _, err in String(decoding: err, as: UTF8.self).contains(text) ? true : nil }
    }

    private func wait<T>(timeout: TimeInterval, _ what: String, _ check: (Data, Data) -> T?) throws -> T {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let value = check(out, err) { return value }
            let lines = Self.completeLines(out)
            let errText = String(decoding: err, as: UTF8.self)
            if finished { throw CLIError("herald exited (\(process.terminationStatus)) before \(what); stdout: \(lines); stderr: \(errText)") }
            if !condition.wait(until: deadline) {
                throw CLIError("timed out waiting for \(what); stdout so far: \(lines); stderr: \(errText)")
            }
        }
    }

    /// Sends SIGINT and waits (at most `timeout` seconds) for the exit status.
    func interrupt(timeout: TimeInterval = 15) throws -> Int32 {
        kill(process.processIdentifier, SIGINT)
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        while !finished, condition.wait(until: deadline) {}
        let done = finished
        condition.unlock()
        guard done else {
            process.terminate()
            throw CLIError("herald did not stop on SIGINT within \(Int(timeout)) s")
        }
        return process.terminationStatus
    }
}

struct CLIError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Valid Croatian mobile numbers, distinct per index.
func mobile(_ i: Int) -> String { "+38591" + String(format: "%07d", 1_000_000 + i) }

let finalOrStuck: Set<String> = ["DeliveredToTerminal", "DeliveredToNetwork", "DeliveryUncertain", "DeliveryImpossible"]

@Suite(.serialized) struct CLIPlatformSendStatusTests {
    @Test func sendToAContactAndANumberThenWaitForTheirStatus() throws {
        let cli = try PlatformCLI()
        let ids = try cli.importContacts([("Ana", "Horvat", mobile(1)), ("Ivo", "Kovač", mobile(2))])
        let ana = try #require(ids["Ana Horvat"])

        let sent = try cli.ok(["send", "--to", String(ana), mobile(3), "--field", "SENDER_NAME=Mia", "--json"])
        let o = try sent.object()
        let bulk = try #require(o["bulkId"] as? String)
        #expect(!bulk.isEmpty)
        #expect((o["deliveryInfoUrl"] as? String)?.contains(bulk) == true)
        let recipients = try #require(o["recipients"] as? [[String: Any]])
        #expect(recipients.map { $0["address"] as? String } == [mobile(1), mobile(3)])
        #expect(recipients[0]["personId"] as? Int == ana)
        #expect(recipients[1]["personId"] is NSNull)       // a bare number: null, not missing
        #expect(recipients.allSatisfy { ($0["messageId"] as? String)?.isEmpty == false && $0["status"] is String })
        #expect((o["skipped"] as? [Any])?.isEmpty == true)

        let status = try cli.ok(["status", bulk, "--wait", "--json"], timeout: 60).object()
        #expect(status["bulkId"] as? String == bulk)
        let infos = try #require(status["deliveryInfo"] as? [[String: Any]])
        #expect(Set(infos.compactMap { $0["address"] as? String }) == [mobile(1), mobile(3)])
        #expect(Set(infos.compactMap { $0["messageId"] as? String }) == Set(recipients.compactMap { $0["messageId"] as? String }))
        #expect(infos.first { $0["address"] as? String == mobile(1) }?["personId"] as? Int == ana)
        #expect(infos.first { $0["address"] as? String == mobile(3) }?["personId"] is NSNull)
        for info in infos {
            let s = info["deliveryStatus"] as? String ?? "?"
            #expect(finalOrStuck.contains(s), "after --wait every recipient is final or stuck at the network, not \(s)")
        }

        // The human view says the same, and HERALD_DATA_DIR finds the same workspace as --data-dir.
        let human = try cli.run(["status", bulk], dataDirOption: false, env: ["HERALD_DATA_DIR": cli.dataDir.path])
        #expect(human.status == 0, "\(human)")
        #expect(human.stdout.contains("Bulk \(bulk): 2 recipients"))
        #expect(human.stdout.contains("Ana Horvat"))
    }

    @Test func skippedNumbersAreListedWithTheirReasonAndTheRestIsSent() throws {
        let cli = try PlatformCLI()
        let o = try cli.ok(["send", "--to", mobile(5), "+44 7700 900123", mobile(5), "--json"]).object()
        let recipients = try #require(o["recipients"] as? [[String: Any]])
        #expect(recipients.map { $0["address"] as? String } == [mobile(5)])
        let skipped = try #require(o["skipped"] as? [[String: Any]])
        #expect(skipped.contains { ($0["address"] as? String)?.contains("7700") == true && ($0["reason"] as? String)?.isEmpty == false })
    }

    @Test func aNumberWhoseInvitationIsOnItsWayIsNotSentTwiceEvenWithResend() throws {
        let cli = try PlatformCLI()
        let first = try cli.ok(["send", "--to", mobile(7), "--json"]).object()
        #expect(first["bulkId"] is String)
        for args in [["send", "--to", mobile(7), "--json"], ["send", "--to", mobile(7), "--resend", "--json"]] {
            let again = try cli.run(args)
            #expect(again.status != 0, "\(again)")
            #expect(again.stderr.contains("nothing was sent"))
            let skipped = try again.object()["skipped"] as? [[String: Any]]
            #expect(skipped?.first?["address"] as? String == mobile(7))
            #expect((skipped?.first?["reason"] as? String)?.contains("on its way") == true)
        }
    }
}
