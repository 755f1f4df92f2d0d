import ArgumentParser
import Foundation
import HeraldCore
import HeraldServices

/// `herald replies send N --text … [--yes]`: one SMS to the number, exactly as written, through the ledger.
struct RepliesSend: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send", abstract: "Answer a number with one SMS, exactly as written.",
        discussion: """
            The answer goes through the ledger as an invitation does: queued and journaled first, never sent twice, held \
            for the undo window ([send] hold_seconds; ctrl-c takes it back), quiet hours and opt-outs apply. No link is \
            made and no field is filled. A person can answer back only a numeric sender or the account's number: Herald \
            warns when [send] sender is alphanumeric.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The number to answer (with its country code, or national with --region).", valueName: "number"))
    var number: String

    @Option(help: ArgumentHelp("The answer (up to 1,600 characters).", valueName: "text"))
    var text: String

    @Flag(help: "Send without asking.")
    var yes = false

    @Flag(help: "Leave at once, without the undo window ([send] hold_seconds).")
    var now = false

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw Output.failure("--text is empty: write the answer, e.g. --text \"See you at 8\"")
        }
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        // Whom it goes to, by name when the book knows the number (a bad number is said here, before anything).
        let detail: ConversationDetail
        do { detail = try await ws.conversations.thread(number: number, limit: 1) } catch {
            throw Output.failure(for: error)
        }
        let meter = SMSMeter.measure(text)
        let sender = ws.conversations.answerSender()
        let summary = "to \(RepliesCommand.who(detail.number, name: detail.name)) from \(Output.safe(sender.label)): "
            + "\(counted(meter.characters, "character")), \(counted(meter.segments, "SMS segment")) (\(meter.encoding.rawValue))"
        if json { Output.note(summary) } else { print("Answer " + summary) }
        if let warning = sender.warning { Output.warn(warning) }
        if !yes {
            guard isatty(STDIN_FILENO) == 1 else {
                throw Output.failure("an answer needs a yes: pass --yes when not at a terminal; nothing was sent")
            }
            FileHandle.standardError.write(Data("Send it? [y/N] ".utf8))
            guard let answer = readLine(), ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased()) else {
                Output.note("nothing was sent")
                return
            }
        }
        let result: InviteResult
        do { result = try await ws.conversations.answer(number: detail.number, text: text, options: InviteOptions(now: now)) } catch {
            throw Output.failure(for: error)
        }
        try await SendReport.finish(result, ws: ws, json: json, scheduled: false)
    }
}
