import Foundation
import HeraldTestKit
import Testing

/// `herald serve` as operators run it: HTTPS that terminals trust through their CA file (and refuse without it),
/// private files whatever the umask, one JSON line per request, and a clean stop.
@Suite(.serialized) struct ServeSafetyTests {
    func curl(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s", "-m", "10"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func aTerminalSendsOverHTTPSWithItsCAFileAndAWrongCAIsRefusedClearly() throws {
        let certs = try TestCertificates.make()
        defer { certs.remove() }
        let server = try PlatformCLI(timeScale: "50")
        let key = try #require(try server.ok(["serve", "keys", "create", "--role", "sender", "--json"]).object()["key"] as? String)
        let serving = try server.start(["serve", "--listen", "127.0.0.1:0", "--tls-cert", certs.serverCertificate, "--tls-key", certs.serverKey])
        let line = try serving.waitForStderrLine(containing: "listening on https://127.0.0.1:", timeout: 30)
        let url = try #require(line.split(separator: " ").last.map(String.init))

        let ana = try PlatformCLI()
        ana.environment = ["HERALD_PLATFORM_URL": url, "HERALD_PLATFORM_KEY": key, "HERALD_PLATFORM_CA_FILE": certs.caCertificate]
        let sent = try ana.ok(["send", "--to", mobile(31), "--json"]).object()
        #expect(sent["bulkId"] is String)

        let stranger = try PlatformCLI()
        stranger.environment = ["HERALD_PLATFORM_URL": url, "HERALD_PLATFORM_KEY": key, "HERALD_PLATFORM_CA_FILE": certs.otherCACertificate]
        let refused = try stranger.run(["templates", "show"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("does not trust"), "\(refused)")
        #expect(refused.stderr.contains("ca_file"))
        #expect(!refused.crashed)
        // A key about to go over plain http to a host not spelled as loopback is warned about.
        let plain = try PlatformCLI()
        plain.environment = ["HERALD_PLATFORM_URL": "http://0.0.0.0:9", "HERALD_PLATFORM_KEY": key]     // this machine, but not spelled as loopback
        let warned = try plain.run(["templates", "show"])
        #expect(warned.stderr.contains("plain http"))
        #expect(try serving.interrupt() == 0)
    }

    @Test func foldersAre0700AndFiles0600WhateverTheUmaskAndALooseFolderIsNamed() throws {
        let cli = try PlatformCLI()
        let fresh = cli.home.appendingPathComponent("fresh/data")
        let made = try cli.run(["serve", "keys", "create", "--role", "viewer", "--data-dir", fresh.path], dataDirOption: false)
        #expect(made.status == 0, "\(made)")
        #expect(try mode(fresh.path) & 0o777 == 0o700)
        #expect(try mode(fresh.appendingPathComponent("engine.sqlite").path) & 0o777 == 0o600)
        let log = cli.home.appendingPathComponent("state/herald/herald.log").path
        if FileManager.default.fileExists(atPath: log) { #expect(try mode(log) & 0o777 == 0o600) }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fresh.path)
        let warned = try cli.run(["serve", "keys", "list", "--data-dir", fresh.path], dataDirOption: false)
        #expect(warned.stderr.contains("warning: \(fresh.path) is open to other users"), "\(warned)")
    }

    @Test func jsonLogsGiveOneLinePerRequestWithItsIdAndKeyNameNeverTheKeyAndAStopLogsNoError() throws {
        let server = try PlatformCLI(timeScale: "50")
        let key = try #require(try server.ok(["serve", "keys", "create", "--role", "viewer", "--name", "support", "--json"]).object()["key"] as? String)
        let serving = try server.start(["serve", "--listen", "127.0.0.1:0", "--log-format", "json", "--replica-id", "east-1"])
        let line = try serving.waitForStderrLine(containing: "listening on http://127.0.0.1:", timeout: 30)
        let url = try #require(line.split(separator: " ").last.map(String.init))
        _ = try curl(["-H", "X-Request-Id: probe-7", "\(url)/health"])
        _ = try curl(["-H", "Authorization: App \(key)", "\(url)/herald/1/session"])
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline, serving.stderr.split(separator: "\n").filter({ $0.contains(#""message":"request""#) }).count < 2 {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let requests = serving.stderr.split(separator: "\n").filter { $0.contains(#""message":"request""#) }.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let health = try #require(requests.first { $0["route"] as? String == "/health" })
        #expect(health["request_id"] as? String == "probe-7")
        #expect(health["status"] as? String == "200")
        #expect(health["replica"] as? String == "east-1")
        #expect(health["pid"] is String)
        #expect(Double(health["duration_ms"] as? String ?? "") != nil)
        let session = try #require(requests.first { $0["route"] as? String == "/herald/1/session" })
        #expect(session["key"] as? String == "support")
        #expect(!serving.stderr.contains(key))
        // An event stream open while the server stops ends with it, and the stop logs no error.
        let follower = Process()
        follower.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        follower.arguments = ["-s", "-N", "-m", "30", "-H", "Authorization: App \(key)", "\(url)/1/events"]
        follower.standardOutput = FileHandle.nullDevice
        try follower.run()
        defer { if follower.isRunning { follower.terminate() } }
        try serving.waitForStderr(#""route":"/1/events""#, timeout: 15)
        #expect(try serving.interrupt() == 0)
        #expect(!serving.stderr.contains(#""level":"error""#), "\(serving.stderr)")
    }

    @Test func oneAddressCannotTakeEveryConnectionAndItsSilentSocketsAreClosed() async throws {
        let server = try PlatformCLI(timeScale: "50")
        let serving = try server.start(["serve", "--listen", "127.0.0.1:0", "--max-connections", "40"])
        let line = try serving.waitForStderrLine(containing: "listening on http://127.0.0.1:", timeout: 30)
        let url = try #require(line.split(separator: " ").last.map(String.init))
        let port = try #require(URL(string: url)?.port)
        // Every time below is taken where the event happens (a send here, a close on a socket's reading thread): this
        // test's own task may resume seconds late while other tests hold the machine.
        let opened = Date()
        // 45 sockets from one address that send nothing: a quarter of the cap is theirs, the rest are refused.
        let hog = try (0..<45).map { _ in try RawConnection(port: port, from: "127.0.0.2") }
        let watches = hog.map { $0.watch(timeout: 40) }
        // Another address is served meanwhile.
        #expect(try curl(["-o", "/dev/null", "-w", "%{http_code}", "\(url)/health"]) == "200")
        // A kept-alive connection after a whole request is closed once idle for 15 s (it was 60).
        let kept = try RawConnection(port: port, from: "127.0.0.3")
        let sent = Date()
        kept.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        let keptWatch = kept.watch(timeout: 40)
        var results: [(data: Data, closedAt: Date?)] = []
        for watch in watches { results.append(await watch.result()) }
        #expect(results.filter { RawConnection.status(of: $0.data) == 429 }.count == 35, "\(results.map(\.data))")
        // The ten held sockets never sent a head: the server closes them within its head timeout (10 s).
        let held = results.filter { $0.data.isEmpty }
        #expect(held.count == 10 && held.allSatisfy { $0.closedAt != nil })
        let after = (held.compactMap(\.closedAt).max() ?? .distantFuture).timeIntervalSince(opened)
        #expect(after > 8 && after < 15, "silent sockets held \(after) s")
        let keptEnd = await keptWatch.result()
        #expect(RawConnection.status(of: keptEnd.data) == 200)
        let idle = (keptEnd.closedAt ?? .distantFuture).timeIntervalSince(sent)
        #expect(idle > 13 && idle < 20, "an idle kept-alive connection held \(idle) s")
        #expect(try serving.interrupt() == 0)
        // Values out of range are refused with the reason.
        let wrong = try server.run(["serve", "--max-connections", "40", "--max-connections-per-address", "41"])
        #expect(wrong.status != 0 && wrong.stderr.contains("--max-connections-per-address is a number from 1 to --max-connections (40)"), "\(wrong)")
        let none = try server.run(["serve", "--max-streams-per-key", "0"])
        #expect(none.status != 0 && none.stderr.contains("--max-streams-per-key is a number from 1 to 100000"), "\(none)")
    }
}
