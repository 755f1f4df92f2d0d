import Foundation
import HeraldAPI
import HeraldCore
import HeraldStore
import Logging

/// What the invite service takes from the configuration.
public struct InviteSettings: Sendable, Hashable {
    /// Sender ID used when a request gives none.
    public var sender: String?
    /// `{SENDER_NAME}` when a request gives none.
    public var senderName: String?
    /// Message key used when a request gives none; nil: the application's default message.
    public var messageKey: String?
    /// When the first delivery poll of a new bulk is due.
    public var firstPollDelay: TimeInterval
    /// How a send retries when the platform did not give a final answer (5xx, 429, timeouts).
    public var retry: SendRetry
    /// Every mobile of a person gets the invitation (`[invite] numbers = "all-mobiles"`); else one SMS per person.
    public var allMobiles: Bool
    /// A message that uses {SENDER_NAME} is refused when nothing gives it a value (a person's workspace); off where a
    /// blank is harmless (tests of other rules).
    public var requireSenderName: Bool
    /// The undo window (`[send] hold_seconds`): the platform holds every send this long before anything leaves, and
    /// it can be taken back meanwhile. 0: sends leave at once.
    public var holdSeconds: TimeInterval
    /// `[send] quiet_hours`: no invitation reaches anyone in these hours of their local time; nil: none.
    public var quietHours: QuietHours?
    /// `[send] max_per_day`: at most this many invitations a day (local time) under one sender ID; nil: no cap.
    public var maxPerDay: Int?
    /// The From of email invitations (`email_from`, a mailbox); nil: email invitations are off.
    public var emailFrom: String?
    /// `[prices]`: the price of one SMS part by country; a send's estimate takes it before reported prices.
    public var prices: PriceTable
    /// `[send] confirm_above`: a send estimated above this is confirmed again; nil: never.
    public var confirmAbove: Double?

    public init(sender: String? = nil, senderName: String? = nil, messageKey: String? = nil, firstPollDelay: TimeInterval = 8,
                retry: SendRetry = SendRetry(), allMobiles: Bool = false, requireSenderName: Bool = false,
                holdSeconds: TimeInterval = 0, quietHours: QuietHours? = nil, maxPerDay: Int? = nil, emailFrom: String? = nil,
                prices: PriceTable = PriceTable(), confirmAbove: Double? = nil) {
        self.prices = prices
        self.confirmAbove = confirmAbove
        self.emailFrom = emailFrom
        self.maxPerDay = maxPerDay
        self.holdSeconds = holdSeconds
        self.quietHours = quietHours
        self.allMobiles = allMobiles
        self.requireSenderName = requireSenderName
        self.sender = sender
        self.senderName = senderName
        self.messageKey = messageKey
        self.firstPollDelay = firstPollDelay
        self.retry = retry
    }
}

/// Retries of one send request whose answer was not final: the same request (same messageIds, so the
/// platform answers a replay with its earlier result) after `baseDelay`, doubling up to `maxDelay`,
/// or after the platform's `Retry-After` when it gives one (capped at `maxDelay`).
public struct SendRetry: Sendable, Hashable {
    public var attempts: Int
    public var baseDelay: TimeInterval
    public var maxDelay: TimeInterval

    public init(attempts: Int = 4, baseDelay: TimeInterval = 0.5, maxDelay: TimeInterval = 8) {
        self.attempts = attempts
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// Seconds to wait before attempt `n + 1` after failure `error` (n counts from 1).
    func delay(after n: Int, _ error: APIError) -> TimeInterval {
        if case .tooManyRequests(let after?) = error { return min(maxDelay, max(0, after)) }
        return min(maxDelay, baseDelay * pow(2, Double(n - 1)))
    }
}

/// Sends invitations by SMS through the platform, with the ledger as the truth on this machine:
/// every recipient is written `queued` (with a correlator that travels as the destination's
/// `messageId`) before the platform is called; the answer is recorded; a refusal marks the rows
/// failed; rows left queued by a crash are replayed with the same correlators before anything new
/// is sent (the platform answers a replay with its earlier result, so nothing is sent twice).
///
/// Several processes may send from one data folder at once: planning (the resend policy reads the
/// latest statuses) and queueing are one write transaction, and each journaled send names the
/// `SendLease` of its process, so reconciliation replays only sends whose process is gone.
public actor InviteService {
    private static let log = Logger(label: "herald.invite")
    let platform: any MessagingPlatform
    /// Where the name the screens asked for is kept.
    nonisolated let names: SettingsStore?
    /// Why this workspace may not send (a viewer's key), told before anything is written; nil when it may.
    public nonisolated let readOnlyReason: String?
    let ledger: LedgerStore
    private let contacts: ContactStore
    private let templates: TemplateService
    private let lease: SendLease
    let bus: EventBus
    let clock: any HeraldClock
    let parser: PhoneNumberParser
    let settings: InviteSettings
    /// Journal ids of sends this actor has in flight (reconcile leaves them alone).
    private var inFlight = Set<String>()

    public init(platform: any MessagingPlatform, ledger: LedgerStore, contacts: ContactStore, templates: TemplateService,
                lease: SendLease, bus: EventBus, parser: PhoneNumberParser, settings: InviteSettings,
                clock: any HeraldClock = SystemClock(), names: SettingsStore? = nil, readOnlyReason: String? = nil) {
        self.names = names
        self.readOnlyReason = readOnlyReason
        self.platform = platform
        self.ledger = ledger
        self.contacts = contacts
        self.templates = templates
        self.lease = lease
        self.bus = bus
        self.parser = parser
        self.settings = settings
        self.clock = clock
    }

    // MARK: public entry points

    /// Invites every invitable number of one person (each once).
    public func invite(person: Person, options: InviteOptions = InviteOptions()) async throws -> InviteResult {
        try await invite([.person(person)], options: options)
    }

    /// Invites a selection of people in one bulk (several requests past 1000 destinations).
    public func invite(people: [Person], options: InviteOptions = InviteOptions()) async throws -> InviteResult {
        try await invite(people.map(InviteTarget.person), options: options)
    }

    /// Invites numbers typed as text.
    public func invite(numbers: [String], options: InviteOptions = InviteOptions()) async throws -> InviteResult {
        try await invite(numbers.map(InviteTarget.number), options: options)
    }

    /// Invites people and numbers. Throws `InviteError` for a rule broken by the whole request
    /// (sender ID, empty message, unknown field) before anything is written; per-number problems
    /// come back in `skipped`.
    public func invite(_ targets: [InviteTarget], options: InviteOptions = InviteOptions()) async throws -> InviteResult {
        try await send(targets, options: options, answer: nil)
    }

    /// Sends one SMS to one number exactly as written — no link made, nothing appended, no field filled (an answer to
    /// a reply) — through the ledger as an invitation goes: queued and journaled first, reconciled after a crash, held
    /// for the undo window and the recipient's quiet hours, refused by the platform when the number opted out. The
    /// ledger keeps the text as sent. Throws `InviteError` for an empty or too long text or a bad number, before
    /// anything is written.
    public func answer(number: String, text: String, options: InviteOptions = InviteOptions()) async throws -> InviteResult {
        let cleaned = TerminalSafeText.sanitize(text, singleLine: false)
        if cleaned.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { throw InviteError.emptyAnswer }
        let limit = SendInvitationBody.Destination.maxTextLength
        if cleaned.count > limit || cleaned.utf8.count > limit * 4 { throw InviteError.answerTooLong(cleaned.count, limit: limit) }
        let parsed = parser.parse(number)
        guard parsed.isValid, parsed.e164 != nil else {
            throw InviteError.invalidNumber(number, parsed.invalidReason ?? "not a phone number")
        }
        var options = options
        options.email = nil
        options.estimate = nil
        // An answer follows an invitation (that is what it answers): the resend policy does not hold it back.
        options.policy = .answer
        return try await send([.number(number)], options: options, answer: cleaned)
    }

    /// An invitation to `targets`, or, with `answer`, that text as written to them.
    private func send(_ targets: [InviteTarget], options: InviteOptions, answer: String?) async throws -> InviteResult {
        if let readOnlyReason { throw InviteError.readOnly(readOnlyReason) }
        guard !targets.isEmpty else { throw InviteError.noTargets }
        let email = options.email.map { SendInvitationBody.Email(subject: $0.subject, text: $0.text) }
        let sender = try email == nil ? resolveSender(options.sender) : resolveEmailSender()
        let fields = try answer == nil ? resolveFields(options.fields) : [:]
        // An answer is filed under the message too (the platform keeps every bulk under one), but says only its text.
        let message = try await resolveMessage(options.messageKey)
        // What leaves: the message, an email's own text with the message's placeholders, or the answer.
        var composed = message
        if let text = email?.text ?? answer { composed.text = text }
        if answer == nil { try requireSenderName(fields, in: composed) }
        // Personal fields are filled here, per recipient, into a text of its own (an SMS's or an email's body).
        let template = MessageTemplate(text: composed.text, linkPlaceholder: composed.placeholder)
        var personal: PersonalPlan?
        if answer == nil, PersonalText.isPersonal(template) {
            personal = PersonalPlan(template: template, choice: options.missing)
        }
        var result = InviteResult()
        result.reconciled = await reconcileQueued()
        // Held by the platform until then (a scheduled send, else the undo window); nil: it leaves now.
        let sendAt = (options.sendAt ?? (options.now || settings.holdSeconds <= 0 ? nil : clock.now().addingTimeInterval(settings.holdSeconds)))
            .map { Date(epochMilliseconds: $0.epochMilliseconds) }   // to the millisecond, as the ledger and the wire keep it
        result.sendAt = sendAt

        var candidates = try email == nil ? plan(targets, fields: fields, personal: personal, skipped: &result.skipped)
            : planEmail(targets, fields: fields, personal: personal, skipped: &result.skipped)
        try refuseMissing(candidates, policy: options.policy)
        if let answer {
            for i in candidates.indices {
                candidates[i].clientData = nil
                candidates[i].text = answer
            }
        }
        if email == nil { try applyDailyCap(to: &candidates, sender: sender, result: &result) }
        guard !candidates.isEmpty else { return result }
        let byCorrelator = Dictionary(uniqueKeysWithValues: candidates.map { ($0.correlator, $0) })
        let stamp = clock.now().epochMilliseconds
        var claimed: [PendingSend] = []
        // Quiet hours are an SMS rule: an email waits in an inbox until its reader looks.
        let groups = email == nil ? quietGroups(candidates, options: options, from: sendAt ?? clock.now()) : [(nil, candidates, [:])]
        for (leavesAt, members, notes) in groups {
            let claim = try ledger.claim(members.map { QueuedRecipient(msisdn: $0.e164, personId: $0.personId, correlator: $0.correlator) },
                                         policy: options.policy, owner: lease.owner, chunkSize: SendInvitation.maxDestinations) { chunk in
                let pending = PendingSend(
                    id: "\(stamp)-\(UUID().uuidString.lowercased())", messageKey: message.key, messageText: composed.text, sender: sender,
                    destinations: chunk.map { .init(address: email == nil ? String($0.msisdn.dropFirst()) : $0.msisdn,
                                                    messageId: $0.correlator, clientData: byCorrelator[$0.correlator]?.clientData,
                                                    text: byCorrelator[$0.correlator]?.text) },
                    personIds: Dictionary(chunk.compactMap { c in c.personId.map { (c.correlator, $0) } }, uniquingKeysWith: { a, _ in a }),
                    resendOf: options.resendOf, sendAt: leavesAt ?? sendAt,
                    notes: notes.isEmpty ? nil : Set(chunk.map(\.correlator)).reduce(into: [String: String]()) { $0[$1] = notes[$1] },
                    email: email, asWritten: answer == nil ? nil : true)
                claimed.append(pending)
                return (pending.id, try pending.encoded())
            }
            for (r, reason) in claim.skipped {
                result.skipped.append(SkippedRecipient(address: r.msisdn, personId: r.personId, reason: reason))
            }
        }

        var firstError: (any Error)?
        for pending in claimed {
            do {
                let sent = try await send(pending)
                result.bulkIds.append(contentsOf: sent.bulkIds.filter { !result.bulkIds.contains($0) })
                result.deliveryInfoUrls.append(sent.deliveryInfoUrl)
                result.recipients.append(contentsOf: sent.recipients)
            } catch {
                firstError = firstError ?? error
                let reason = userMessage(for: error)
                let queued: Bool = { if case InviteError.platformUncertain = error { return true } else { return false } }()
                result.recipients.append(contentsOf: pending.destinations.compactMap { d in
                    d.messageId.map {
                        InvitedRecipient(address: pending.ledgerAddress(d.address), messageId: nil, personId: pending.personIds[$0], bulkId: nil,
                                         status: queued ? .queued : .sendFailed, reason: reason, correlator: $0)
                    }
                })
            }
        }
        if result.bulkIds.isEmpty, let firstError { throw firstError }
        if let estimate = options.estimate { recordEstimates(estimate, of: result) }
        return result
    }

    // MARK: reconciling

    /// Replays the sends that rows left `queued` belong to, with the same correlators, and records
    /// the platform's answers. Only sends whose process is gone (or this actor's own sends that are
    /// not in flight) are touched: another process's send still waiting for its answer is left alone.
    /// Queued rows that belong to no journaled send cannot be replayed and are marked failed.
    @discardableResult
    public func reconcileQueued() async -> ReconcileReport {
        var report = ReconcileReport()
        let snapshot: QueuedSnapshot
        do { snapshot = try ledger.queuedSnapshot() } catch {
            report.unreadable = userMessage(for: error)
            return report
        }
        let queued = Set(snapshot.queued.map(\.correlator))
        var covered = Set<String>()
        for entry in snapshot.sends {
            let send: PendingSend?
            do { send = try PendingSend.decode(entry.payload) } catch {
                // Unreadable: its rows are marked failed below, with the reason; the cause goes to the log.
                Self.log.error("could not read back an interrupted send", metadata: ["send": "\(entry.id)", "error": "\(logCause(error))"])
                send = nil
            }
            let destinations = Set(send?.destinations.compactMap(\.messageId) ?? [])
            covered.formUnion(destinations)
            let mine = destinations.intersection(queued)
            let own = entry.owner == lease.owner
            if own, inFlight.contains(entry.id) { continue }
            do {
                // Whether its process still sends it; when that cannot be told, it is left queued (never sent twice).
                if !own, try lease.isAlive(entry.owner) {
                    report.otherProcess += mine.count
                    continue
                }
                // Another process's send is taken over first (one reconciler wins it).
                if !own, try !ledger.takeOver(send: entry.id, from: entry.owner, to: lease.owner) { continue }
                guard send != nil else {
                    try ledger.markFailed(correlators: Array(mine), reason: "the interrupted request could not be read back; invite again",
                                          completing: entry.id)
                    report.failed += mine.count
                    continue
                }
                if mine.isEmpty {
                    try ledger.removeSend(id: entry.id)  // finished: its rows have their answers
                    continue
                }
            } catch {
                report.unreadable = userMessage(for: error)
                continue
            }
            guard let send else { continue }
            do {
                let sent = try await self.send(send.restricted(to: mine))
                report.reconciled += sent.recipients.count
                report.bulkIds += sent.bulkIds.filter { !report.bulkIds.contains($0) }
            } catch InviteError.platformUncertain {
                report.stillQueued += mine.count
            } catch {
                report.failed += mine.count
            }
        }
        let orphans = snapshot.queued.filter { !covered.contains($0.correlator) }
        if !orphans.isEmpty {
            do {
                try ledger.markFailed(correlators: orphans.map(\.correlator),
                                      reason: "interrupted before the platform answered, and the request could not be replayed; invite again")
                report.failed += orphans.count
            } catch {
                report.unreadable = userMessage(for: error)
            }
        }
        if report.reconciled + report.failed > 0 {
            bus.publish(.toast(level: report.failed > 0 ? .warning : .info, text: report.summary))
        }
        return report
    }

    // MARK: steps

    struct Candidate {
        /// E.164 with the plus; the email address of an email invitation.
        var e164: String
        var personId: Int64?
        var correlator: String
        var clientData: [String]?
        /// The person's name as shown; nil for a number outside the book.
        var name: String? = nil
        /// Personal fields with no value and no fallback (the send was given no choice for them).
        var missing: [String] = []
        /// Its own text: personal fields filled (link and client fields left to the platform), or an answer as
        /// written; nil: the message's.
        var text: String?
    }

    private struct SentChunk {
        var bulkIds: [String]
        var deliveryInfoUrl: String
        var recipients: [InvitedRecipient]
    }

    /// Never a message with a gap where the sender's name goes.
    func requireSenderName(_ fields: [String: String], in message: ApplicationMessage) throws {
        let senderName = ClientField.senderName.rawValue
        guard settings.requireSenderName, (fields[senderName] ?? "").trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return }
        if MessageTemplate(text: message.text, linkPlaceholder: message.placeholder).placeholders.contains(where: { $0.kind == .field(senderName) }) {
            throw InviteError.noSenderName(messageText: message.text)
        }
    }

    /// The From of an email invitation, as `email_from` gives it (the workspace checked it when it opened).
    func resolveEmailSender() throws -> String {
        guard let from = settings.emailFrom?.trimmingCharacters(in: .whitespaces), !from.isEmpty else { throw InviteError.noEmailSender }
        return from
    }

    func resolveSender(_ given: String?) throws -> String {
        guard let sender = given ?? settings.sender else { throw InviteError.noSender }
        do { try SenderID.validate(sender) } catch { throw InviteError.invalidSender(error) }
        return sender
    }

    func resolveFields(_ given: [String: String]) throws -> [String: String] {
        for key in given.keys where ClientField(rawValue: key) == nil { throw InviteError.unknownField(key) }
        var fields = given
        if fields[ClientField.senderName.rawValue] == nil, let name = settings.senderName ?? savedSenderName {
            fields[ClientField.senderName.rawValue] = name
        }
        return fields
    }

    static let senderNameSetting = "senderName"

    /// The name the screens asked for (`:name`), kept in the workspace; nil when none was given.
    public nonisolated var savedSenderName: String? {
        guard let names else { return nil }
        do { return try names.string(Self.senderNameSetting) } catch {
            Self.log.warning("the kept sender name cannot be read", metadata: ["cause": "\(error)"])
            return nil
        }
    }

    /// Keeps the name for the next sends (the screens' and the CLI's) of this workspace.
    public nonisolated func saveSenderName(_ name: String) throws {
        try names?.set(Self.senderNameSetting, name)
    }

    func resolveMessage(_ given: String?) async throws -> ApplicationMessage {
        let key: String
        if let k = given ?? settings.messageKey {
            key = k
        } else {
            let found: Result<String, TemplateError>
            do { found = .success(try await templates.defaultMessageKey()) } catch { found = .failure(error) }
            switch found {
            case .success(let k): key = k
            case .failure(.noDefault): throw InviteError.noMessage
            case .failure(let other): throw other
            }
        }
        let message = try await templates.message(key: key)
        guard !message.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw InviteError.emptyMessage(key: key)
        }
        return message
    }

    /// The numbers to send to, each once (the resend policy is applied when they are claimed); everything
    /// left out goes to `skipped`.
    func plan(_ targets: [InviteTarget], fields: [String: String], personal: PersonalPlan? = nil,
              skipped: inout [SkippedRecipient]) throws -> [Candidate] {
        var wanted: [(e164: String, person: Person?)] = []
        for target in targets {
            switch target {
            case .person(let person):
                let (invitable, left) = person.smsPlan(allMobiles: settings.allMobiles)
                for n in left { skipped.append(SkippedRecipient(address: n.address, personId: person.id, reason: n.reason)) }
                if person.phones.isEmpty {
                    skipped.append(SkippedRecipient(address: person.displayName, personId: person.id,
                                                    reason: "has no phone number (invite by email instead)"))
                }
                for e in invitable { wanted.append((e, person)) }
            case .number(let text):
                let number = parser.parse(text)
                guard number.isValid, let e164 = number.e164 else {
                    skipped.append(SkippedRecipient(address: text, personId: nil, reason: number.invalidReason ?? "not a phone number"))
                    continue
                }
                guard number.isInvitable else {
                    skipped.append(SkippedRecipient(address: e164, personId: nil,
                                                    reason: "a \(number.kind.rawValue) number cannot receive SMS"))
                    continue
                }
                let owner = try contacts.personIDs(withNumber: e164).first.flatMap { try contacts.person(id: $0) }
                wanted.append((e164, owner))
            }
        }
        try personal?.checkKnown(people: wanted.compactMap(\.person))
        var seen = Set<String>()
        var out: [Candidate] = []
        for (e164, person) in wanted {
            guard seen.insert(e164).inserted else {
                skipped.append(SkippedRecipient(address: e164, personId: person?.id, reason: "listed more than once in this request"))
                continue
            }
            if let candidate = try candidate(e164, person: person, fields: fields, personal: personal, skipped: &skipped) {
                out.append(candidate)
            }
        }
        return out
    }

    /// One recipient at `address`: the client fields (the receiver's name from the book), and with `personal` its own
    /// text, or nil when it is left out for a field it lacks (then it is in `skipped`, with the reason).
    private func candidate(_ address: String, person: Person?, fields: [String: String], personal: PersonalPlan?,
                           skipped: inout [SkippedRecipient]) throws -> Candidate? {
        var values = fields
        if values[ClientField.receiverName.rawValue] == nil, let person {
            values[ClientField.receiverName.rawValue] = person.displayName
        }
        let data = ClientDataCleaning.clientData(from: values)
        var candidate = Candidate(e164: address, personId: person?.id, correlator: "hc-" + UUID().uuidString.lowercased(),
                                  clientData: data.isEmpty ? nil : data, name: person?.displayName)
        if let personal {
            switch try personal.text(for: person) {
            case .text(let text, let missing):
                candidate.text = text
                candidate.missing = missing
            case .leftOut(let reason):
                skipped.append(SkippedRecipient(address: address, personId: person?.id, reason: reason))
                return nil
            }
        }
        return candidate
    }

    /// The people to email, each at their first address (an address given as text goes as it is), each address once;
    /// everyone else goes to `skipped`.
    func planEmail(_ targets: [InviteTarget], fields: [String: String], personal: PersonalPlan? = nil,
                   skipped: inout [SkippedRecipient]) throws -> [Candidate] {
        try personal?.checkKnown(people: targets.compactMap { if case .person(let p) = $0 { p } else { nil } })
        var seen = Set<String>()
        var out: [Candidate] = []
        for target in targets {
            // A person at their first address, or an address as given (a resend), with its person when the book has one.
            let given: String
            var person: Person?
            switch target {
            case .person(let p):
                guard let first = p.emails.first else {
                    skipped.append(SkippedRecipient(address: p.displayName, personId: p.id,
                                                    reason: "has no email address (invite by SMS instead)"))
                    continue
                }
                given = first.address
                person = p
            case .number(let text):
                given = text
                person = try contacts.personIDs(withEmail: text).first.flatMap { try contacts.person(id: $0) }
            }
            let address: String
            do { address = try EmailAddress(given, field: "email").address } catch {
                skipped.append(SkippedRecipient(address: given, personId: person?.id, reason: userMessage(for: error)))
                continue
            }
            guard seen.insert(address.lowercased()).inserted else {
                skipped.append(SkippedRecipient(address: address, personId: person?.id, reason: "listed more than once in this request"))
                continue
            }
            if let candidate = try candidate(address, person: person, fields: fields, personal: personal, skipped: &skipped) {
                out.append(candidate)
            }
        }
        return out
    }

    /// Calls the platform for a journaled send whose rows are queued, retrying answers that are not
    /// final with the same messageIds, and records the answer. A refusal marks the rows failed; no final
    /// answer after the retries leaves them queued (`InviteError.platformUncertain`), to be reconciled.
    private func send(_ pending: PendingSend) async throws -> SentChunk {
        let correlators = pending.destinations.compactMap(\.messageId)
        inFlight.insert(pending.id)
        defer { inFlight.remove(pending.id) }
        var attempt = 1
        while true {
            let answer: SendInvitationResponse.SendSmsResponse
            do {
                answer = try await platform.sendInvitation(pending.body(now: clock.now()))
            } catch {
                // A 5xx or a lost answer does not say the platform did nothing: it may have accepted first.
                let uncertain: Bool
                switch error {
                case .timeout, .transport, .server, .tooManyRequests, .invalidResponse: uncertain = true
                default: uncertain = false
                }
                guard uncertain else {
                    try ledger.markFailed(correlators: correlators, reason: error.description, completing: pending.id)
                    throw InviteError.platformRefused(error.description)
                }
                guard attempt < settings.retry.attempts, !Task.isCancelled else {
                    throw InviteError.platformUncertain(error.description, queued: correlators.count)
                }
                let delay = settings.retry.delay(after: attempt, error)
                if delay > 0 { try? await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000)) }
                attempt += 1
                continue
            }
            return try record(answer, for: pending)
        }
    }

    /// Writes the platform's answer to the ledger, one bulk record per bulkId it names.
    private func record(_ answer: SendInvitationResponse.SendSmsResponse, for pending: PendingSend) throws -> SentChunk {
        let now = clock.now()
        var byBulk: [String: [SendOutcome]] = [:]
        var order: [String] = []
        var recipients: [InvitedRecipient] = []
        let byAddress = Dictionary(answer.responses.compactMap { r in r.address.map { ($0.hasPrefix("+") ? String($0.dropFirst()) : $0, r) } },
                                   uniquingKeysWith: { a, _ in a })
        for (i, d) in pending.destinations.enumerated() {
            guard let correlator = d.messageId else { continue }
            let response = answer.responses.count == pending.destinations.count ? answer.responses[i] : byAddress[d.address]
            let bulkId = response?.bulkId ?? answer.bulkId
            let status = response?.status ?? .sendFailed
            // A recipient held for their quiet hours says until when, in their own time.
            let reason = response == nil ? "the platform did not answer for this number"
                : response?.reason ?? (status == .scheduled ? pending.notes?[correlator] : nil)
            if byBulk[bulkId] == nil { order.append(bulkId) }
            byBulk[bulkId, default: []].append(SendOutcome(correlator: correlator, messageId: response?.messageId,
                                                           status: status, error: reason, text: response?.text))
            recipients.append(InvitedRecipient(address: pending.ledgerAddress(d.address), messageId: response?.messageId,
                                               personId: pending.personIds[correlator], bulkId: bulkId, status: status,
                                               reason: reason, correlator: correlator))
        }
        for (n, bulkId) in order.enumerated() {
            let outcomes = byBulk[bulkId] ?? []
            // A held bulk is first read just after it leaves (on the embedded platform that read hands it over).
            let firstPoll = max(now.addingTimeInterval(settings.firstPollDelay), pending.sendAt.map { $0.addingTimeInterval(1) } ?? .distantPast)
            var bulk = BulkRecord(bulkId: bulkId, createdAt: now, messageKey: pending.messageKey,
                                  messageText: pending.messageText, sender: pending.sender, recipientCount: outcomes.count,
                                  nextPollAt: firstPoll, resendOf: pending.resendOf, sendAt: pending.sendAt)
            if let existing = try ledger.bulk(id: bulkId) {
                bulk = existing
                bulk.recipientCount = max(existing.recipientCount, try ledger.recipients(ofBulk: bulkId).count + outcomes.count)
                if bulk.nextPollAt == nil { bulk.nextPollAt = firstPoll }
            }
            try ledger.recordSent(bulk: bulk, outcomes: outcomes, completing: n == order.count - 1 ? pending.id : nil)
            let refused = outcomes.filter { $0.status.isImpossible }.count
            bus.publish(.bulkSent(BulkSent(bulkId: bulkId, accepted: outcomes.count - refused, refused: refused, at: now,
                                           sendAt: pending.sendAt)))
        }
        return SentChunk(bulkIds: order, deliveryInfoUrl: answer.deliveryInfoUrl, recipients: recipients)
    }
}
