import ArgumentParser
import Foundation
import HeraldAPI
import HeraldServices

/// `herald sandbox …`: act as the platform's operator on the embedded sandbox.
struct SandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox", abstract: "Operate the embedded sandbox platform.", subcommands: [SandboxPushInbox.self, SandboxReply.self])
}

struct SandboxPushInbox: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "push-inbox", abstract: "Put a message in a user's inbox.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "External user id (case-sensitive).") var user: String
    @Option(help: "Inbox topic.") var topic: String?
    @Option(help: "Title.") var title: String?
    @Option(help: "Body text.") var body: String
    @Flag(help: "Print JSON.") var json = false

    struct Pushed: Encodable { var messageId: String; var sendDateTime: Int64 }

    func run() async throws {
        guard !user.isEmpty else { throw Output.failure("no inbox user: pass --user with the external user id (it is case-sensitive)") }
        guard !body.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw Output.failure("the message has no text: pass --body with what the user should read")
        }
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        guard let sandbox = ws.connection.sandbox else {
            throw Output.failure("this workspace is on \(ws.connection.kind); only the embedded sandbox takes pushed messages")
        }
        do {
            let m = try await sandbox.pushInbox(user: user, topic: topic, title: title, body: body)
            if json { try Output.printJSON(Pushed(messageId: m.messageId, sendDateTime: m.sendDateTime.epochMilliseconds)) } else {
                print(Output.safe(m.messageId))
            }
        } catch {
            throw Output.failure("\(error)")
        }
    }
}

/// `herald sandbox reply --from NUMBER --text TEXT`: the simulated carrier receives an SMS reply, kept in the number's
/// conversation (`herald replies`); one that says stop (STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT) opts the number out.
struct SandboxReply: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reply", abstract: "Receive an SMS reply from a number: kept in its conversation (STOP opts it out).")
    @OptionGroup var global: GlobalOptions
    @Option(help: "The number the reply comes from (E.164).") var from: String
    @Option(help: "What it says.") var text: String

    func run() async throws {
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        guard let sandbox = ws.connection.sandbox else {
            throw Output.failure("this workspace is on \(ws.connection.kind); only the embedded sandbox takes replies by hand")
        }
        do {
            let shown = from.hasPrefix("+") ? from : "+" + from
            if let entry = try await sandbox.receiveReply(from: from, text: text) {
                print("reply kept; \(entry.number) opted out (\(Output.safe(entry.source))); read it with `herald replies show \(Output.safe(shown))`")
            } else {
                print("reply kept; it does not say stop, so the number stays in; read it with `herald replies show \(Output.safe(shown))`")
            }
        } catch {
            throw Output.failure("the reply was not taken: \(userMessage(for: error))")
        }
    }
}
