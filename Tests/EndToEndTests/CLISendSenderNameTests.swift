import Foundation
import Testing

/// An invitation never leaves with a blank sender name: with no `sender_name`, no `HERALD_SENDER_NAME` and a login
/// that gives none (root), `herald send` of a message using {SENDER_NAME} refuses and names each way to set one.
@Suite struct CLISendSenderNameTests {
    static let noName = ["HERALD_SENDER_NAME": "", "USER": "root", "LOGNAME": "root"]

    @Test func aSendWithoutASenderNameIsRefusedAndSaysHowToSetOne() throws {
        let cli = try PlatformCLI()
        let refused = try cli.run(["send", "--to", mobile(51), "--json"], env: Self.noName)
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("no sender name fills {SENDER_NAME}: nothing was sent"), "\(refused)")
        #expect(refused.stderr.contains("sender_name in "), "\(refused)")
        #expect(refused.stderr.contains("--field SENDER_NAME="), "\(refused)")
        #expect(refused.stdout.isEmpty, "nothing was sent, so no bulk is printed: \(refused)")
        #expect(!refused.crashed)

        // Each way named works: --field, then sender_name in config.toml.
        let given = try cli.ok(["send", "--to", mobile(51), "--field", "SENDER_NAME=Zoë", "--json"], env: Self.noName).object()
        #expect((given["recipients"] as? [[String: Any]])?.count == 1)
        let config = cli.home.appendingPathComponent("config/herald/config.toml")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "sender_name = \"Ana Horvat\"\n".write(to: config, atomically: true, encoding: .utf8)
        let configured = try cli.ok(["send", "--to", mobile(52), "--json"], env: Self.noName).object()
        #expect((configured["recipients"] as? [[String: Any]])?.count == 1)
    }

    @Test func aMessageWithoutTheSenderPlaceholderNeedsNoName() throws {
        let cli = try PlatformCLI()
        let made = try cli.ok(["templates", "create", "--text", "Join me on Herald: <>", "--json"]).object()
        let key = try #require(made["key"] as? String)
        let sent = try cli.ok(["send", "--to", mobile(53), "--message", key, "--json"], env: Self.noName).object()
        #expect((sent["recipients"] as? [[String: Any]])?.count == 1)
    }
}
