import Foundation
import Testing

@Suite(.serialized) struct CLIPlatformTemplatesTests {
    @Test func createUpdateAndTheEditingToggle() throws {
        let cli = try PlatformCLI()
        let listed = try cli.ok(["templates", "list", "--json"]).object()
        #expect(listed["messageEditingAllowed"] as? Bool == true)
        let defaults = try #require(listed["messages"] as? [[String: Any]])
        #expect(defaults.count == 1)
        #expect(defaults.first?["isDefault"] as? Bool == true)

        let created = try cli.ok(["templates", "create", "--key", "party", "--text", "Party at {SENDER_NAME}'s: <>", "--json"]).object()
        #expect(created["key"] as? String == "party")
        try cli.ok(["templates", "update", "party", "--text", "Party moved, {RECEIVER_NAME}: <>"])
        #expect(try cli.ok(["templates", "show", "party", "--json"]).object()["text"] as? String == "Party moved, {RECEIVER_NAME}: <>")

        // Off: shown by list and by `editing`, and an update is refused with what to do.
        let off = try cli.ok(["templates", "editing", "off"])
        #expect(off.stdout.contains("Message editing: off"))
        #expect(try cli.ok(["templates", "list"]).stdout.contains("Message editing: off"))
        #expect(try cli.ok(["templates", "editing", "--json"]).object()["messageEditingAllowed"] as? Bool == false)
        let refused = try cli.run(["templates", "update", "party", "--text", "Changed: <>"])
        #expect(refused.status != 0)
        #expect(!refused.crashed, "\(refused)")
        #expect(refused.stderr.contains("does not allow message editing"))
        #expect(refused.stderr.contains("herald templates editing on"))
        #expect(try cli.ok(["templates", "show", "party", "--json"]).object()["text"] as? String == "Party moved, {RECEIVER_NAME}: <>")
        // A message of one's own is an edit too.
        let made = try cli.run(["templates", "create", "--text", "Another one <>"])
        #expect(made.status != 0 && made.stderr.contains("a message of your own is an edit too"), "\(made)")

        // On again: the update and the new message go through.
        #expect(try cli.ok(["templates", "editing", "on", "--json"]).object()["messageEditingAllowed"] as? Bool == true)
        try cli.ok(["templates", "update", "party", "--text", "Changed: <>"])
        try cli.ok(["templates", "create", "--text", "Another one <>"])
        #expect(try cli.ok(["templates", "show", "party", "--json"]).object()["text"] as? String == "Changed: <>")
        let all = try cli.ok(["templates", "list", "--json"]).object()
        #expect((all["messages"] as? [Any])?.count == 3)
    }

    @Test func sendUsesAChosenMessage() throws {
        let cli = try PlatformCLI()
        try cli.ok(["templates", "create", "--key", "short", "--text", "Hi {RECEIVER_NAME}, join: <>"])
        let o = try cli.ok(["send", "--to", mobile(21), "--message", "short", "--json"]).object()
        #expect((o["recipients"] as? [Any])?.count == 1)
    }

    @Test func aTemplateWithoutTheLinkIsMadeOnlyWhenAskedFor() throws {
        let cli = try PlatformCLI()
        let made = try cli.ok(["templates", "create", "--text", "Join me on Herald", "--no-link", "--json"]).object()
        #expect(made["text"] as? String == "Join me on Herald")
    }

    /// A field beyond the five client fields is a personal one (filled per recipient when a send is made): kept as written.
    @Test func aMessageWithPersonalFieldsIsKept() throws {
        let cli = try PlatformCLI()
        let made = try cli.ok(["templates", "create", "--text", "Hi {FIRST_NAME|there}, {TEAM} plays <>", "--json"]).object()
        #expect(made["text"] as? String == "Hi {FIRST_NAME|there}, {TEAM} plays <>")
    }

    @Test func badTemplateInputIsRefusedWithWhatToDo() throws {
        let cli = try PlatformCLI()
        let cases: [(args: [String], says: String)] = [
            (["templates", "editing", "maybe"], "on"),
            (["templates", "create", "--text", "  "], "empty"),
            (["templates", "create", "--text", "Join me on Herald"], "--no-link"),
            (["templates", "create", "--text", "Join me on Herald", "--placeholder", "[link]"], "no link placeholder \"[link]\""),
            (["inbox", "list", "--user", "demo", "--limit", "-5"], "--limit must be 1 or more"),
            (["contacts", "list", "--limit", "-5"], "--limit must be 0 or more"),
            (["templates", "show", "nosuch"], "herald templates list"),
            (["templates", "update", "nosuch", "--text", "x <>"], "no message"),
            (["templates", "update", "nosuch"], "--text"),
        ]
        for c in cases {
            let r = try cli.run(c.args)
            #expect(r.status != 0, "\(c.args): \(r)")
            #expect(!r.crashed, "\(c.args): \(r)")
            #expect(r.stderr.contains(c.says), "\(c.args) should say \(c.says): \(r)")
        }
    }
}
