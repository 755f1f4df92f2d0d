import Foundation
import Testing

@Suite(.serialized) struct CLIPlatformShareTests {
    @Test func suggestShareAndSandboxCommandsAnswer() throws {
        let cli = try PlatformCLI()
        let ids = try cli.importContacts([("Ana", "Horvat", mobile(31)), ("Ivo", "Kovač", mobile(32)), ("Mia", "Babić", mobile(33))])
        #expect(ids.count == 3)

        let suggested = try cli.ok(["suggest", "--count", "2", "--json"]).array() as? [[String: Any]]
        #expect(suggested?.count == 2)
        for s in suggested ?? [] {
            #expect(ids.values.contains(s["personId"] as? Int ?? -1))
            #expect((s["number"] as? String)?.hasPrefix("+38591") == true)
            #expect(s["reasons"] is [String])
        }

        let link = try cli.ok(["share", "link", "--referrer", "mia", "--json"]).object()
        let url = try #require(link["url"] as? String)
        #expect(url.hasPrefix("https://"))
        #expect(link["clicks"] as? Int == 0)
        // The same referrer gets the same link.
        #expect(try cli.ok(["share", "link", "--referrer", "mia", "--json"]).object()["url"] as? String == url)

        let qr = try cli.ok(["share", "qr", "--referrer", "mia"])
        #expect(qr.stdout.contains(url))
        #expect(qr.stdout.split(separator: "\n").count > 10)

        let urls = try cli.ok(["share", "urls", "--referrer", "mia", "--json"]).object()
        #expect(urls.count >= 4)
        #expect(urls.values.allSatisfy { ($0 as? String)?.hasPrefix("https://") == true })

        let pushed = try cli.ok(["sandbox", "push-inbox", "--user", "u1", "--title", "Hello", "--body", "Body"])
        #expect(!pushed.stdout.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        #expect(try cli.ok(["inbox", "list", "--user", "u1", "--json"]).object()["countUnread"] as? Int == 1)
    }
}
