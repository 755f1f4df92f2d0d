import ArgumentParser
import Foundation
import HeraldAPI
import HeraldCore
import HeraldServices
import HeraldStore

/// `herald status BULK`: the delivery state of every recipient of a bulk.
struct StatusCommand: AsyncParsableCommand {
    /// Redraws "N of M final" on stderr every half second until cancelled, then clears the line.
    static func showProgress(book: ContactBook, bulkId: String) async {
        let safeId = Output.safe(bulkId)
        while !Task.isCancelled {
            // A read that fails leaves the last line up; the table after the wait reads again and says why.
            if let rows = try? await book.recipients(ofBulk: bulkId) {
                let final = rows.filter { $0.invitation.status.isFinal(for: $0.invitation.msisdn) }.count
                let line = "waiting for \(safeId): \(final) of \(rows.count) recipient\(rows.count == 1 ? "" : "s") final (ctrl-c stops waiting)"
                FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
            }
            try? await Task.sleep(nanoseconds: 500_000_000)
        }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }

    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the delivery state of a bulk of invitations.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The bulk id `herald send` printed.", valueName: "bulk"), completion: LiveCompletions.bulkIDs)
    var bulk: String

    @Flag(help: "Keep polling until every recipient is final or the passes are spent.")
    var wait = false

    @Flag(help: "Print JSON.")
    var json = false

    func run() async throws {
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        let book = ws.book
        if try await book.bulk(id: bulk) == nil {
            // On a Herald server a colleague's bulk is the team's: the platform knows it, and it is recorded as theirs.
            let known: [DeliveryInfo]
            do { known = try await ws.platform.deliveryInfos(bulkId: bulk) } catch APIError.notFound {
                known = []
            } catch {
                throw Output.failure("no bulk \(Output.safe(bulk)) in this workspace (\(ws.dataDirectory.path)), and the platform "
                                     + "could not be asked for it: \(userMessage(for: error))")
            }
            guard !known.isEmpty else {
                throw Output.failure("no bulk \(Output.safe(bulk)) in this workspace (\(ws.dataDirectory.path)) or on its platform: check the id, or pass the --data-dir it was sent from")
            }
            try await ws.tracker.store(known, bulkId: bulk)
        }
        if wait {
            let interrupt = SignalTrap(SIGINT)
            let tracker = ws.tracker
            let bulkId = bulk
            let task = Task { await tracker.waitUntilSettled(bulkIds: [bulkId]) }
            interrupt.onSignal { task.cancel() }
            // On a terminal, one line that says how far the bulk is while it is waited for (never in a pipe or a file).
            let progress = isatty(STDERR_FILENO) == 1 ? Task { await Self.showProgress(book: book, bulkId: bulkId) } : nil
            await task.value
            progress?.cancel()
            _ = await progress?.value
            interrupt.cancel()
        } else {
            // One fresh look at the platform; the ledger answers when it cannot be reached, and says so.
            do {
                let infos = try await ws.platform.deliveryInfos(bulkId: bulk)
                do {
                    try await ws.tracker.store(infos, bulkId: bulk)
                } catch {
                    Output.warn("could not record the platform's fresh states (\(userMessage(for: error))): showing the states last recorded")
                }
            } catch {
                Output.warn("could not ask the platform (\(userMessage(for: error))): showing the states last recorded")
            }
        }
        let recipients = try await book.recipients(ofBulk: bulk)
        let rows = recipients.map(\.invitation)
        // What the send estimated, beside what the carrier reported (nil for a bulk sent without a known price).
        let estimate = try await ws.invites.bulkEstimate(bulkId: bulk)
        if json {
            try Output.printJSON(StatusJSON(bulkId: bulk, estimate: estimate.map { .init(amount: $0.amount, currency: $0.currency) },
                                            deliveryInfo: rows.map {
                StatusJSON.Info(address: $0.msisdn, messageId: $0.messageId, personId: $0.personId, deliveryStatus: $0.status.rawValue,
                                price: $0.currency == nil ? nil : $0.price, currency: $0.currency, error: $0.error,
                                permanentFailure: $0.permanentFailure ? true : nil, clicks: $0.clicks, text: $0.text)
            }))
            return
        }
        // A carrier that names its prices (Infobip) gets a price column and a total per currency.
        let priced = rows.contains { $0.currency != nil }
        let failed = rows.contains { $0.status.isImpossible && $0.error != nil }
        let clicked = rows.contains { $0.clicks > 0 }
        var headers = ["ADDRESS", "NAME", "STATUS", "MESSAGE ID"]
        var widths = [18, 28, 14, 40]
        if priced { headers.append("PRICE"); widths.append(16) }
        if clicked { headers.append("CLICKS"); widths.append(6) }
        if failed { headers.append("WHY"); widths.append(120) }
        var table = OutputTable(headers: headers, maxWidths: widths)
        var counts: [DeliveryStatus: Int] = [:]
        var totals: [String: Double] = [:]
        for recipient in recipients {
            let r = recipient.invitation
            counts[r.status, default: 0] += 1
            var cells = [r.msisdn, recipient.name ?? "", r.status.label(for: r.msisdn), r.messageId ?? ""]
            if priced { cells.append(r.currency.flatMap { c in r.price.map { Self.money($0, c) } } ?? "") }
            if clicked { cells.append(r.clicks > 0 ? String(r.clicks) : "") }
            if failed { cells.append(r.status.isImpossible ? r.error ?? "" : "") }
            if let c = r.currency, let p = r.price { totals[c, default: 0] += p }
            table.add(cells)
        }
        print("Bulk \(Output.safe(bulk)): \(counted(rows.count, "recipient"))")
        print(table.render(), terminator: "")
        var summary = DeliveryStatus.allCases.compactMap { s in counts[s].map { "\($0) \(s.label)" } }
        if clicked { summary.append("\(rows.filter { $0.clicks > 0 }.count) opened their link") }
        summary += totals.sorted { $0.key < $1.key }.map { "cost \(Self.money($0.value, $0.key))" }
        if let estimate { summary.append("estimated \(PriceEstimate.format(estimate.amount)) \(Output.safe(estimate.currency)) before sending") }
        print(summary.joined(separator: ", "))
    }
}

extension StatusCommand {
    /// "0.0075 EUR": the carrier's figure as it gave it, with its currency.
    static func money(_ amount: Double, _ currency: String) -> String {
        "\((amount * 1_000_000).rounded() / 1_000_000) \(Output.safe(currency))"
    }
}

/// `herald status --json`.
struct StatusJSON: Encodable {
    struct Info: Encodable {
        var address: String
        var messageId: String?
        var personId: Int64?
        var deliveryStatus: String
        /// The carrier's price and currency, when it names them.
        var price: Double?
        var currency: String?
        /// Why it failed.
        var error: String?
        var permanentFailure: Bool?
        /// How often the recipient's own link was opened.
        var clicks: Int
        /// The text as the platform sent it (its link included), when it said.
        var text: String?

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(address, forKey: .address)
            try c.encode(messageId, forKey: .messageId)
            try c.encode(personId, forKey: .personId)
            try c.encode(deliveryStatus, forKey: .deliveryStatus)
            try c.encodeIfPresent(price, forKey: .price)
            try c.encodeIfPresent(currency, forKey: .currency)
            try c.encodeIfPresent(error, forKey: .error)
            try c.encodeIfPresent(permanentFailure, forKey: .permanentFailure)
            try c.encode(clicks, forKey: .clicks)
            try c.encodeIfPresent(text, forKey: .text)
        }
        enum CodingKeys: String, CodingKey {
            case address, messageId, personId, deliveryStatus, price, currency, error, permanentFailure, clicks, text
        }
    }

    /// What the send estimated this bulk would cost (`herald send` keeps it), beside the reported prices.
    struct Estimate: Encodable {
        var amount: Double
        var currency: String
    }

    var bulkId: String
    var estimate: Estimate?
    var deliveryInfo: [Info]
}

/// Runs a handler when a signal arrives (instead of the default of killing the process).
final class SignalTrap: @unchecked Sendable {
    private let source: DispatchSourceSignal
    private let number: Int32

    init(_ number: Int32) {
        self.number = number
        signal(number, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: number, queue: .global())
    }

    func onSignal(_ handler: @escaping @Sendable () -> Void) {
        source.setEventHandler(handler: handler)
        source.resume()
    }

    func cancel() {
        source.cancel()
        signal(number, SIG_DFL)
    }
}
