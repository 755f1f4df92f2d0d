import Foundation
import HeraldAPI
import HeraldEngine
import HeraldServer
import HeraldTestKit
import Testing

/// The audit trail through a server: an action is recorded under the key's name, its role and the client's address;
/// every key reads the bulks' entries, only an admin key the keys' history; and no route, whatever its method or key,
/// changes or removes an entry.
@Suite struct ServerAuditTests {
    func trail(_ s: ServerHarness, key: String, query: [String: String] = [:]) async throws -> (status: Int, list: AuditList?) {
        let answer = try await s.raw(.get, ListAudit.path.description, key: key, query: query)
        return (answer.status, answer.isSuccess ? try HeraldJSON.decode(AuditList.self, from: answer.body) : nil)
    }

    @Test func aSendIsRecordedUnderTheKeyAndAViewerNeverReadsAKeysHistory() async throws {
        let s = try await ServerHarness()
        defer { s.stop() }
        let bulk = try await s.invite(3, key: s.sender)
        // The admin reads everything: the three keys made at the console, then the send.
        let all = try #require(try await trail(s, key: s.admin).list).entries
        #expect(all.map(\.action) == ["send", "key-create", "key-create", "key-create"], "\(all.map(\.action))")
        let send = try #require(all.first)
        #expect(send.actor == "ana" && send.role == "sender" && send.address == "127.0.0.1" && send.keyId != nil)
        #expect(send.bulkId == bulk.bulkId && send.what == "3 recipients, sender Herald")
        #expect(all.dropFirst().allSatisfy { $0.role == "local" && $0.address == "local" })
        // A viewer and a sender read the send, never the keys; asking for them by name is refused.
        for key in [s.viewer, s.sender] {
            let seen = try await trail(s, key: key)
            #expect(seen.status == 200 && seen.list?.entries.map(\.action) == ["send"])
            let asked = try await s.raw(.get, ListAudit.path.description, key: key, query: ["action": "key-create"])
            #expect(asked.status == 403)
            #expect(String(decoding: asked.body, as: UTF8.self).contains("only an admin key reads the history of keys"))
        }
        #expect(try await trail(s, key: s.admin, query: ["action": "key-revoke"]).list?.entries.isEmpty == true)
        // Without a key, nothing.
        #expect(try await s.raw(.get, ListAudit.path.description).status == 401)
    }

    /// On a server that masks numbers for viewers, a viewer reads an opt-out's entry with its number masked (and a
    /// sender ID that is a number masked in its text); a sender reads them whole.
    @Test func aViewerReadsTheNumbersOfTheTrailMaskedWhenTheServerMasksThem() async throws {
        var options = ServerOptions(host: "127.0.0.1", port: 0)
        options.maskNumbersForViewers = true
        let s = try await ServerHarness(options: options)
        defer { s.stop() }
        _ = try await s.call(AddOptOut(secret: s.sender, number: "+385981234567"))
        let whole = try #require(try await trail(s, key: s.sender).list?.entries.first)
        #expect(whole.action == "opt-out-add" && whole.subject == "+385981234567")
        let masked = try #require(try await trail(s, key: s.viewer).list?.entries.first)
        #expect(masked.action == "opt-out-add" && masked.subject == "+385 98 ••• 4567", "\(masked)")
        #expect(masked.actor == "ana" && masked.id == whole.id)
    }

    @Test func noRouteChangesOrRemovesAnEntry() async throws {
        let s = try await ServerHarness()
        defer { s.stop() }
        _ = try await s.invite(2, key: s.sender)
        let before = try #require(try await trail(s, key: s.admin).list).entries
        // The trail has one route, and it reads.
        let routes = PlatformEngine.routes.filter { $0.path.description.contains("audit") }
        #expect(routes.map(\.method) == [.get] && routes.map(\.access) == [.read])
        // Whatever an admin key sends to the trail's paths is refused and changes nothing.
        let body = Data(#"{"actor": "nobody", "what": "nothing happened"}"#.utf8)
        for method in [HTTPMethod.post, .put, .delete] {
            for path in [ListAudit.path.description, ListAudit.path.description + "/\(before[0].id)"] {
                let answer = try await s.raw(method, path, key: s.admin, body: method == .delete ? nil : body)
                #expect(!answer.isSuccess, "\(method.rawValue) \(path) answered \(answer.status)")
            }
        }
        #expect(try await trail(s, key: s.admin).list?.entries == before)
    }
}
