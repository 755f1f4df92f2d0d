import Foundation
import Testing
import HeraldAPI

/// What `herald --version` says, what a server tells at `/health` and in a session, and when a terminal warns that its
/// server is older than the wire it needs.
@Suite struct HeraldVersionTests {
    @Test func theVersionLineNamesTheReleaseAndTheCommit() {
        let commit = String(repeating: "ab", count: 20)
        #expect(HeraldBuild(version: "0.9.0", commit: commit).line == "herald 0.9.0 (commit \(commit))")
        #expect(HeraldBuild(version: "1.2.3").line == "herald 1.2.3 (commit unknown)")
        #expect(HeraldBuild().version == HeraldVersion.number)
        #expect(HeraldVersion.number.split(separator: ".").count == 3)
        #expect(HeraldVersion.number.split(separator: ".").allSatisfy { Int($0) != nil })
    }

    @Test func theJSONGivesVersionCommitDatePlatformAndWire() throws {
        let build = HeraldBuild(version: "0.9.0", commit: "unknown", date: "2026-01-02T03:04:05Z", platform: "linux-x86_64")
        let object = try #require(try JSONSerialization.jsonObject(with: HeraldJSON.encode(build)) as? [String: Any])
        #expect(object["version"] as? String == "0.9.0")
        #expect(object["commit"] as? String == "unknown")
        #expect(object["date"] as? String == "2026-01-02T03:04:05Z")
        #expect(object["platform"] as? String == "linux-x86_64")
        #expect(object["wire"] as? Int == HeraldVersion.wire)
        #expect(HeraldBuild.thisPlatform.contains("-") && !HeraldBuild.thisPlatform.contains("unknown"))
    }

    @Test func anOlderServersAnswersStillDecode() throws {
        let health = try HeraldJSON.decode(ServerHealth.self, from: Data(#"{"status":"ok"}"#.utf8))
        #expect(health.version == nil && health.wire == nil)
        let session = try HeraldJSON.decode(ServerSession.self, from: Data(#"{"applicationKey":"a","role":"sender","name":"n","keyId":"k"}"#.utf8))
        #expect(session.version == nil && session.wire == nil)
        let told = ServerHealth(ok: HeraldBuild(version: "0.9.0", commit: "c"))
        #expect(told.status == "ok" && told.version == "0.9.0" && told.commit == "c" && told.wire == HeraldVersion.wire)
    }

    @Test func aTerminalWarnsOnlyWhenItsServerIsOlderThanTheWireItNeeds() throws {
        let url = "http://127.0.0.1:8080"
        #expect(HeraldVersion.wire >= HeraldVersion.wireNeeded, "a server of this release serves its own terminals")
        #expect(HeraldVersion.olderServerWarning(url: url, serverVersion: HeraldVersion.number, announcedWire: HeraldVersion.wire) == nil)
        #expect(HeraldVersion.olderServerWarning(url: url, serverVersion: "9.0.0", announcedWire: HeraldVersion.wireNeeded + 5) == nil)

        let silent = try #require(HeraldVersion.olderServerWarning(url: url, serverVersion: nil, announcedWire: nil))
        #expect(silent.contains(url) && silent.contains("wire 0") && silent.contains("needs wire \(HeraldVersion.wireNeeded)"))
        #expect(silent.contains("upgrade the server"))
        let old = try #require(HeraldVersion.olderServerWarning(url: url, serverVersion: "0.8.1", announcedWire: HeraldVersion.wireNeeded - 1))
        #expect(old.contains("Herald 0.8.1") && old.contains("this terminal (Herald \(HeraldVersion.number))"))
    }
}
