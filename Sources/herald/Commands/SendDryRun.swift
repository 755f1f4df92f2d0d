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
        if !preview.missing.isEmpty {
            let fields = Array(Set(preview.missing.map(\.field))).sorted()
            print("\(preview.missing.count) recipient field\(preview.missing.count == 1 ? " is" : "s are") empty with no fallback "
                  + "(shown as {FIELD}); a send needs --missing leave-out, or --missing fallback "
                  + fields.map { "--fallback \($0)=TEXT" }.joined(separator: " ") + ":")
            var table = OutputTable(headers: ["ADDRESS", "NAME", "FIELD"], maxWidths: [18, 30, 30])
            for m in preview.missing { table.add([m.address, TerminalSafeText.sanitize(m.name ?? ""), m.field]) }
            print(table.render(), terminator: "")
        }
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
        var name: String?
        /// Personal fields this recipient has no value for (left as {FIELD} in `text`).
        var missingFields: [String]
    }

    struct Missing: Encodable {
        var address: String
        var personId: Int64?
        var name: String?
        var field: String
    }

    var dryRun = true
    var sender: String
    var messageKey: String
    var recipients: [Recipient]
    var skipped: [SendJSON.Skipped]
    var segments: Int
    var estimate: EstimateJSON
    /// The personal fields the message uses beyond the client fields; empty: one text for all.
    var personalFields: [String]
    /// Recipients whose personal field is empty with no fallback (a send needs --missing).
    var missing: [Missing]

    init(_ preview: InvitePreview) {
        estimate = EstimateJSON(preview.estimate)
        sender = preview.sender
        messageKey = preview.messageKey
        recipients = preview.recipients.map {
            Recipient(address: $0.address, personId: $0.personId, text: $0.text, encoding: $0.encoding.rawValue, segments: $0.segments,
                      name: $0.name, missingFields: $0.missingFields)
        }
        personalFields = preview.personalFields
        missing = preview.missing.map { Missing(address: $0.address, personId: $0.personId, name: $0.name, field: $0.field) }
        skipped = preview.skipped.map { SendJSON.Skipped(address: $0.address, reason: $0.reason) }
        segments = preview.segments
    }
}
