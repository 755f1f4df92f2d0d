import Foundation
import Testing

/// `herald --version [--json]`, a server's `/health`, `herald platform check` with both sides' versions, and the
/// warning a terminal gives once when its server is older than the wire it needs (a proxy that hides what older
/// servers did not tell, in front of a real `herald serve`).
@Suite(.serialized) struct CLIVersionTests {
    static let packageDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The release number, from the one file that names it.
    static func release() throws -> String {
        let source = try String(contentsOf: packageDirectory.appendingPathComponent("Sources/HeraldAPI/HeraldVersion.swift"), encoding: .utf8)
        let match = try #require(source.firstMatch(of: /static let number = "([0-9]+\.[0-9]+\.[0-9]+)"/))
        return String(match.1)
    }

    /// The commit the binary must name: HEAD's, when the binary was linked after HEAD last moved; nil when that cannot
    /// be told (no git program, no .git, or HEAD moved since the build), and then only the form is checked.
    static func expectedCommit(of binary: URL) -> String? {
        let git = packageDirectory.appendingPathComponent(".git")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/git"),
              let head = try? String(contentsOf: git.appendingPathComponent("HEAD"), encoding: .utf8) else { return nil }
        var moved = [git.appendingPathComponent("HEAD"), git.appendingPathComponent("packed-refs")]
        if head.hasPrefix("ref:") {
            moved.append(git.appendingPathComponent(head.dropFirst(4).trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        func modified(_ url: URL) -> Date? { (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date }
        guard let built = modified(binary), moved.compactMap(modified).allSatisfy({ $0 < built }) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = ["-C", packageDirectory.path, "rev-parse", "HEAD"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationStatus == 0 ? text.trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }

    static func isCommit(_ text: String) -> Bool {
        text == "unknown" || (text.count == 40 && text.allSatisfy { $0.isHexDigit && !$0.isUppercase })
    }

    @Test func versionPrintsTheReleaseAndTheCommitItWasBuiltFrom() throws {
        let cli = try PlatformCLI()
        let release = try Self.release()
        let text = try cli.run(["--version"], dataDirOption: false)
        #expect(text.status == 0, "\(text)")
        let match = try #require(text.stdout.wholeMatch(of: /herald ([0-9.]+) \(commit ([0-9a-zA-Z]+)\)\n/), "\(text)")
        #expect(String(match.1) == release)
        let commit = String(match.2)
        #expect(Self.isCommit(commit), "\(commit)")
        if let head = Self.expectedCommit(of: cli.binary) {
            #expect(commit == head, "the binary was linked after HEAD last moved, so it names HEAD")
        }
        #expect(text.stderr.isEmpty, "\(text)")

        // Plain, flags the other way round, and with the root's options (which it ignores, as ArgumentParser's does).
        for (args, dataDir) in [(["--version", "--json"], false), (["--json", "--version"], false), (["--version", "--json"], true)] {
            let json = try cli.run(args, dataDirOption: dataDir)
            #expect(json.status == 0, "\(json)")
            let object = try json.object()
            #expect(object["version"] as? String == release)
            #expect(object["commit"] as? String == commit)
            let date = try #require(object["date"] as? String)
            #expect(ISO8601DateFormatter().date(from: date) != nil, "\(date)")
            let platform = try #require(object["platform"] as? String)
            #expect(platform.hasPrefix("linux-") || platform.hasPrefix("macos-"), "\(platform)")
            #expect((object["wire"] as? Int ?? 0) >= 1)
        }
        #expect(try cli.ok(["--help"]).stdout.contains("--version"), "ArgumentParser lists it")
    }

    @Test func healthAndPlatformCheckSayWhichVersionEachSideRuns() throws {
        let server = try PlatformCLI(timeScale: "50")
        let (serving, url, senderKey, _) = try server.serve()
        let release = try Self.release()
        let mine = try server.ok(["--version", "--json"]).object()
        let commit = try #require(mine["commit"] as? String)

        let health = try #require(try JSONSerialization.jsonObject(with: Data(try ServeReplicaTests.curl(url + "/health").body.utf8)) as? [String: Any])
        #expect(health["status"] as? String == "ok")
        #expect(health["version"] as? String == release)
        #expect(health["commit"] as? String == commit)
        #expect((health["wire"] as? Int ?? 0) >= 1)

        let cli = try PlatformCLI()
        cli.environment = ["HERALD_PLATFORM_URL": url, "HERALD_PLATFORM_KEY": senderKey]
        let check = try cli.ok(["platform", "check"])
        #expect(check.stdout.contains("herald:   \(release) (commit \(commit))"), "\(check)")
        #expect(check.stdout.contains("server:   \(release) (commit \(commit)), wire "), "\(check)")
        #expect(!check.stderr.contains("warning"), "a server of this release is new enough: \(check)")
        let json = try cli.ok(["platform", "check", "--json"]).object()
        #expect((json["herald"] as? [String: Any])?["version"] as? String == release)
        #expect((json["server"] as? [String: Any])?["version"] as? String == release)
        #expect((json["server"] as? [String: Any])?["commit"] as? String == commit)
        #expect(try serving.interrupt() == 0)
    }

    @Test func aTerminalWarnsOnceAndGoesOnWhenItsServerIsOlderThanTheWireItNeeds() throws {
        let server = try PlatformCLI(timeScale: "50")
        let (serving, address, senderKey, _) = try server.serve()
        let proxy = try FixtureProxy("old_server_proxy.py", upstream: address)
        defer { withExtendedLifetime(proxy) {} }      // the proxy serves until the test's end
        let url = proxy.url

        let cli = try PlatformCLI()
        cli.environment = ["HERALD_PLATFORM_URL": url, "HERALD_PLATFORM_KEY": senderKey]
        let check = try cli.run(["platform", "check"])
        #expect(check.status == 0, "an older server is used anyway: \(check)")
        #expect(!check.crashed, "\(check)")
        let warnings = check.stderr.components(separatedBy: "herald: warning: the Herald server at \(url)")
        #expect(warnings.count == 2, "warned once: \(check)")
        #expect(check.stderr.contains("needs wire 1") && check.stderr.contains("upgrade the server"), "\(check)")
        #expect(check.stdout.contains("server:   a Herald from before versions were told (wire 0)"), "\(check)")
        #expect(check.stdout.contains("ok   server"), "\(check)")
        #expect(try serving.interrupt() == 0)
    }
}
