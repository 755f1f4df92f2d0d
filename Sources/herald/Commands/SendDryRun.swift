import Foundation
import HeraldCore
import HeraldServices

/// `herald send --dry-run`: the send worked out by the same rules, printed, and nothing written or sent.
extension SendCommand {
    func printDryRun(_ targets: [InviteTarget], options: InviteOptions, ws: Workspace) async throws {
        // Each recipient's own link is made only when a send is accepted: the texts show one of the same form.
        let link = ws.linkExample
        let preview: InvitePreview
        do { preview = try await ws.invites.preview(targets, options: options, link: link) } catch {
            throw Output.failure(for: error)
        }
        if json {
            try Output.printJSON(DryRunJSON(preview))
            return
        }
        print("Dry run: nothing was sent. Sender \(Output.safe(preview.sender)), message \(Output.safe(preview.messageKey)).")
        if !preview.recipients.isEmpty {
            var table = OutputTable(headers: ["ADDRESS", "NAME", "SMS", "TEXT"], maxWidths: [18, 24, 5, 200])
            let names = await ContactNameColumn(preview.recipients.map(\.personId), book: ws.book)
            for r in preview.recipients {
                table.add([r.address, names.name(of: r.personId), "\(r.segments)", TerminalSafeText.sanitize(r.text)])
            }
            print(table.render(), terminator: "")
        }
        let count = preview.recipients.count
        print("\(count) SMS invitation\(count == 1 ? "" : "s") (\(preview.segments) segment\(preview.segments == 1 ? "" : "s")); "
              + "links shown as \(link): each recipient gets their own when the send is accepted")
        Self.printEstimate(preview.estimate)
        if !preview.skipped.isEmpty {
            print("Would skip \(preview.skipped.count):")
            var table = OutputTable(headers: ["ADDRESS", "REASON"], maxWidths: [24, 90])
            for s in preview.skipped { table.add([s.address, s.reason]) }
            print(table.render(), terminator: "")
        }
    }
}

/// `herald send --dry-run --json`.
struct DryRunJSON: Encodable {
    struct Recipient: Encodable {
        var address: String
        var personId: Int64?
        var text: String
        var encoding: String
        var segments: Int
    }

    var dryRun = true
    var sender: String
    var messageKey: String
    var recipients: [Recipient]
    var skipped: [SendJSON.Skipped]
    var segments: Int
    var estimate: EstimateJSON

    init(_ preview: InvitePreview) {
        estimate = EstimateJSON(preview.estimate)
        sender = preview.sender
        messageKey = preview.messageKey
        recipients = preview.recipients.map {
            Recipient(address: $0.address, personId: $0.personId, text: $0.text, encoding: $0.encoding.rawValue, segments: $0.segments)
        }
        skipped = preview.skipped.map { SendJSON.Skipped(address: $0.address, reason: $0.reason) }
        segments = preview.segments
    }
}
