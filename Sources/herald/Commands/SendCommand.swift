import ArgumentParser
import Foundation
import HeraldAPI
import HeraldCore
import HeraldServices

/// `herald send`: invite contacts (by id) and numbers by SMS.
struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send", abstract: "Send invitations by SMS to contacts or phone numbers.",
        discussion: "Every recipient is written to the ledger before the platform is called, so an interrupted send is finished (never doubled) on the next run.")

    @OptionGroup var global: GlobalOptions

    @Option(name: .customLong("to"), parsing: .upToNextOption,
            help: ArgumentHelp("Contact ids or phone numbers (several allowed).", valueName: "target"))
    var targetOptions: [String] = []

    @Option(name: .customLong("to-file"), help: ArgumentHelp(
        "A file of contact ids or phone numbers, one per line (- reads standard input).", valueName: "path"))
    var toFile: String?

    @Option(help: ArgumentHelp("The contacts a saved segment finds now (see `herald contacts segments list`); with --to, both.",
                               valueName: "name"))
    var segment: String?

    @Option(help: ArgumentHelp("Message to send (see `herald templates list`); default: the application's.", valueName: "id"))
    var message: String?

    @Option(help: ArgumentHelp("Sender ID: up to 11 letters/digits, or up to 16 digits.", valueName: "name"))
    var sender: String?

    @Option(name: .customLong("field"), help: ArgumentHelp("Client field for every recipient, e.g. SENDER_NAME=Ana.", valueName: "KEY=VALUE"))
    var fields: [String] = []

    @Option(help: ArgumentHelp("Country for numbers written without +code (e.g. US); default from config or LANG.", valueName: "CC"))
    var region: String?

    @Flag(help: "Also send to numbers already invited (never to ones still on their way).")
    var resend = false

    @Option(help: ArgumentHelp("Send later: \"2026-12-01 09:00\", \"09:00\" (the next one) or \"+2h\"; until then `herald bulks cancel` or `bulks move` change it.", valueName: "time"))
    var at: String?

    @Option(help: ArgumentHelp("The time zone --at is read in (e.g. Europe/Zagreb); default: this machine's.", valueName: "zone"))
    var tz: String?

    @Flag(help: "Leave at once, without the undo window ([send] hold_seconds).")
    var now = false

    @Option(name: .customLong("quiet-hours"), help: ArgumentHelp(
        "No invitation reaches anyone in these hours of their local time (\"21:00-08:00\"; \"off\": none); default [send] quiet_hours.",
        valueName: "range"))
    var quietHours: String?

    @Flag(name: .customLong("dry-run"), help: "Print what would be sent (each text, its SMS parts, the estimated cost, who is skipped) and send nothing.")
    var dryRun = false

    @Option(name: .customLong("max-cost"), help: ArgumentHelp(
        "Refuse the send when its estimate is above this (in the prices' currency), or when a recipient's price is unknown.",
        valueName: "amount"))
    var maxCost: Double?

    @Flag(name: .customLong("allow-unknown-price"), help: "With --max-cost: send to recipients whose price is unknown too (not counted).")
    var allowUnknownPrice = false

    @Flag(help: "Send even when the estimate is above [send] confirm_above (or cannot be told).")
    var yes = false

    @Flag(help: "Print JSON.")
    var json = false

    @Option(help: ArgumentHelp(
        "Recipients whose personal field ({FIRST_NAME}, {TEAM}…) is empty, with no fallback in the message: leave-out, or fallback (with --fallback).",
        valueName: "leave-out|fallback"))
    var missing: String?

    @Option(name: .customLong("fallback"), help: ArgumentHelp(
        "With --missing fallback: the text a recipient without this field gets instead, e.g. FIRST_NAME=there (repeatable).",
        valueName: "FIELD=TEXT"))
    var fallbacks: [String] = []

    func run() async throws {
        let targets = try allTargets()
        guard !targets.isEmpty || segment != nil else { throw Output.failure(InviteError.noTargets.userMessage) }
        if let message, message.trimmingCharacters(in: .whitespaces).isEmpty {
            throw Output.failure("--message is empty: pass a message id (see `herald templates list`), or leave --message out to send the application's default")
        }
        var values: [String: String] = [:]
        for f in fields {
            guard let eq = f.firstIndex(of: "="), eq != f.startIndex else {
                throw Output.failure("--field \"\(Output.safe(f))\" is not KEY=VALUE (for example SENDER_NAME=Ana)")
            }
            values[String(f[..<eq]).uppercased()] = String(f[f.index(after: eq)...])
        }
        // --region reads national numbers here; anything it cannot read goes on as written, for the send to explain.
        let parser = try region.map { try global.phoneParser(region: $0) }
        let ws = try await global.openWorkspace()
        defer { ws.close() }
        var resolved: [InviteTarget] = []
        for t in targets {
            let trimmed = t.trimmingCharacters(in: .whitespaces)
            if !trimmed.hasPrefix("+"), !trimmed.hasPrefix("0"), let id = Int64(trimmed), trimmed.count < 7 {
                guard let person = try await ws.book.person(id: id) else {
                    throw Output.failure(InviteError.unknownPerson(id).userMessage
                        + "; a phone number is written with its country code, e.g. +385 91 123 4567")
                }
                resolved.append(.person(person))
            } else if let parser, let e164 = parser.parse(trimmed).e164 {
                resolved.append(.number(e164))
            } else {
                resolved.append(.number(trimmed))
            }
        }
        if let segment { resolved += try await segmentPeople(segment, ws: ws, after: resolved) }
        let sendAt = try scheduledTime()
        var options = InviteOptions(messageKey: message, sender: sender, fields: values, policy: ResendPolicy(allowResendToInvited: resend),
                                    sendAt: sendAt, now: now)
        if let quietHours {
            if quietHours.lowercased() == "off" { options.ignoreQuietHours = true } else {
                do { options.quietHours = try QuietHours(parsing: quietHours) } catch {
                    throw Output.failure("--quiet-hours: \(error.description); nothing was sent")
                }
            }
        }
        if let maxCost, !(maxCost >= 0 && maxCost.isFinite) {
            throw Output.failure("--max-cost must be an amount of 0 or more, like --max-cost 5; nothing was sent")
        }
        options.missing = try missingChoice()
        if dryRun { return try await printDryRun(resolved, options: options, ws: ws) }
        // Checked before anything reaches the ledger; each bulk keeps its part of the estimate.
        options.estimate = try await checkCost(resolved, options: options, ws: ws)
        let result: InviteResult
        do {
            result = try await ws.invites.invite(resolved, options: options)
        } catch {
            throw Output.failure(for: error)
        }
        try await SendReport.finish(result, ws: ws, json: json, scheduled: sendAt != nil)
    }

    /// The people the segment `name` finds now, in name order, leaving out those already in `earlier`; a segment that
    /// finds no one, or cannot be used, stops the send.
    private func segmentPeople(_ name: String, ws: Workspace, after earlier: [InviteTarget]) async throws -> [InviteTarget] {
        let people: [Person]
        do {
            let listing = try await ws.book.listing(query: "segment:" + ContactQuery.quoted(name), sort: .firstName)
            people = try await ws.book.people(ids: try await ws.book.ids(of: listing))
        } catch let error as ContactQueryError {
            throw Output.failure("--segment: \(error.message); nothing was sent")
        }
        guard !people.isEmpty else {
            throw Output.failure("--segment \(Output.safe(name)) finds no one now; nothing was sent")
        }
        let named = Set(earlier.compactMap { if case .person(let p) = $0 { return p.id } else { return nil } })
        return people.filter { !named.contains($0.id ?? -1) }.map { .person($0) }
    }

    /// `--missing` and `--fallback`: what a recipient without a personal field gets; nil when not said.
    private func missingChoice() throws -> MissingFieldChoice? {
        var given: [String: String] = [:]
        for f in fallbacks {
            guard let eq = f.firstIndex(of: "="), eq != f.startIndex else {
                throw Output.failure("--fallback \"\(Output.safe(f))\" is not FIELD=TEXT (for example FIRST_NAME=there)")
            }
            let text = String(f[f.index(after: eq)...])
            guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw Output.failure("--fallback \(Output.safe(String(f[..<eq]))) is empty: a fallback is never a blank; give a text or --missing leave-out")
            }
            given[String(f[..<eq]).uppercased()] = text
        }
        switch missing?.lowercased() {
        case nil:
            if !given.isEmpty { throw Output.failure("--fallback needs --missing fallback") }
            return nil
        case "leave-out":
            if !given.isEmpty { throw Output.failure("--missing leave-out leaves them out: drop --fallback, or pass --missing fallback") }
            return .leaveOut
        case "fallback":
            if given.isEmpty { throw Output.failure("--missing fallback needs --fallback FIELD=TEXT for each field a recipient lacks") }
            return .fallback(given)
        default:
            throw Output.failure("--missing \(Output.safe(missing ?? "")) is not leave-out or fallback")
        }
    }

    /// `--at` read in `--tz` (or this machine's zone); nil when not given. `--at` with `--now` is refused.
    private func scheduledTime() throws -> Date? {
        if tz != nil, at == nil { throw Output.failure("--tz names the time zone of --at: pass --at too") }
        guard let at else { return nil }
        if now { throw Output.failure("--at and --now contradict each other: pass one") }
        do throws(SendTimeError) {
            let zone = try tz.map { name throws(SendTimeError) in try SendTime.timeZone(named: name) } ?? .current
            return try SendTime.parse(at, now: Date(), timeZone: zone)
        } catch {
            throw Output.failure("--at: \(Output.safe(error.description)); nothing was sent")
        }
    }

    /// `--to` values (taken out of the command line before parsing, see `RecipientArguments`) and `--to-file` lines.
    private func allTargets() throws -> [String] {
        var targets = targetOptions + RecipientArguments.targets
        guard let toFile else { return targets }
        let text: String
        if toFile == "-" {
            text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        } else {
            do { text = try String(contentsOfFile: toFile, encoding: .utf8) } catch {
                throw Output.failure("--to-file \(Output.safe(toFile)) cannot be read: \(error.localizedDescription)")
            }
        }
        for line in text.split(whereSeparator: \.isNewline) {
            let t = line.trimmingCharacters(in: .whitespaces)
            if !t.isEmpty, !t.hasPrefix("#") { targets.append(t) }
        }
        return targets
    }
}

/// `herald send --json`.
struct SendJSON: Encodable {
    struct Recipient: Encodable {
        var address: String
        var messageId: String?
        var personId: Int64?
        var status: String
        /// Why the platform refused or failed it; null otherwise.
        var reason: String?

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(address, forKey: .address)
            try c.encode(messageId, forKey: .messageId)
            try c.encode(personId, forKey: .personId)
            try c.encode(status, forKey: .status)
            try c.encode(reason, forKey: .reason)
        }
        enum CodingKeys: String, CodingKey { case address, messageId, personId, status, reason }
    }

    struct Skipped: Encodable {
        var address: String
        var reason: String
    }

    struct Reconciled: Encodable {
        var completed: Int
        var failed: Int
        var stillQueued: Int
        var bulkIds: [String]
    }

    var bulkId: String?
    var bulkIds: [String]
    var deliveryInfoUrl: String?
    var recipients: [Recipient]
    var skipped: [Skipped]
    var reconciled: Reconciled
    /// When the held bulk leaves (ISO 8601, UTC); null when it left at once.
    var sendAt: String?
    /// Invitations the sender ID may still send today; null without a cap.
    var leftToday: Int?

    init(_ r: InviteResult, reconciled report: ReconcileReport) {
        sendAt = r.sendAt.map(WireTime.text)
        leftToday = r.leftToday
        reconciled = Reconciled(completed: report.reconciled, failed: report.failed, stillQueued: report.stillQueued,
                                bulkIds: report.bulkIds)
        bulkId = r.bulkId
        bulkIds = r.bulkIds
        deliveryInfoUrl = r.deliveryInfoUrl
        recipients = r.recipients.map {
            Recipient(address: $0.address, messageId: $0.messageId, personId: $0.personId, status: $0.status.rawValue, reason: $0.reason)
        }
        skipped = r.skipped.map { Skipped(address: $0.address, reason: $0.reason) }
    }

    func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(bulkId, forKey: .bulkId)
        try c.encode(bulkIds, forKey: .bulkIds)
        try c.encode(deliveryInfoUrl, forKey: .deliveryInfoUrl)
        try c.encode(recipients, forKey: .recipients)
        try c.encode(skipped, forKey: .skipped)
        try c.encode(reconciled, forKey: .reconciled)
        try c.encode(sendAt, forKey: .sendAt)
        try c.encode(leftToday, forKey: .leftToday)
    }
    enum CodingKeys: String, CodingKey { case bulkId, bulkIds, deliveryInfoUrl, recipients, skipped, reconciled, sendAt, leftToday }
}
