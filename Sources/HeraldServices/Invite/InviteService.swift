import Foundation
import HeraldAPI
import HeraldCore
import HeraldStore

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

    public init(sender: String? = nil, senderName: String? = nil, messageKey: String? = nil, firstPollDelay: TimeInterval = 8) {
        self.sender = sender
        self.senderName = senderName
        self.messageKey = messageKey
        self.firstPollDelay = firstPollDelay
    }
}

/// Sends invitations by SMS through the platform, with the ledger as the truth on this machine:
/// every recipient is written `queued` (with a correlator that travels as the destination's
/// `messageId`) before the platform is called; the answer is recorded; a refusal marks the rows
/// failed; rows left queued by a crash are replayed with the same correlators before anything new
/// is sent (the platform answers a replay with its earlier result, so nothing is sent twice).
public actor InviteService {
    private let platform: any MessagingPlatform
    private let ledger: LedgerStore
    private let contacts: ContactStore
    private let templates: TemplateService
    private let journal: PendingSendJournal
    private let bus: EventBus
    private let clock: any HeraldClock
    private let parser: PhoneNumberParser
    private let settings: InviteSettings
    /// Journal ids of sends this actor has in flight (reconcile leaves them alone).
    private var inFlight = Set<String>()

    public init(platform: any MessagingPlatform, ledger: LedgerStore, contacts: ContactStore, templates: TemplateService,
                settingsStore: SettingsStore, bus: EventBus, parser: PhoneNumberParser, settings: InviteSettings,
                clock: any HeraldClock = SystemClock()) {
        self.platform = platform
        self.ledger = ledger
        self.contacts = contacts
        self.templates = templates
        self.journal = PendingSendJournal(settings: settingsStore)
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
        guard !targets.isEmpty else { throw InviteError.noTargets }
        let sender = try resolveSender(options.sender)
        let fields = try resolveFields(options.fields)
        let message = try await resolveMessage(options.messageKey)
        _ = await reconcileQueued()

        var result = InviteResult()
        let candidates = try plan(targets, fields: fields, policy: options.policy, skipped: &result.skipped)
        guard !candidates.isEmpty else { return result }

        var firstError: (any Error)?
        var start = 0
        while start < candidates.count {
            let chunk = Array(candidates[start..<min(start + SendInvitation.maxDestinations, candidates.count)])
            start += chunk.count
            let pending = PendingSend(
                id: "\(clock.now().epochMilliseconds)-\(UUID().uuidString.lowercased())", messageKey: message.key,
                messageText: message.text, sender: sender,
                destinations: chunk.map { .init(address: String($0.e164.dropFirst()), messageId: $0.correlator, clientData: $0.clientData) },
                personIds: Dictionary(chunk.compactMap { c in c.personId.map { (c.correlator, $0) } }, uniquingKeysWith: { a, _ in a }))
            do {
                let sent = try await send(pending, enqueue: true)
                result.bulkIds.append(contentsOf: sent.bulkIds.filter { !result.bulkIds.contains($0) })
                result.deliveryInfoUrls.append(sent.deliveryInfoUrl)
                result.recipients.append(contentsOf: sent.recipients)
            } catch {
                firstError = firstError ?? error
                let reason = userMessage(for: error)
                let queued: Bool = { if case InviteError.platformUncertain = error { return true } else { return false } }()
                result.recipients.append(contentsOf: chunk.map {
                    InvitedRecipient(address: $0.e164, messageId: nil, personId: $0.personId, bulkId: nil,
                                     status: queued ? .queued : .sendFailed, reason: reason, correlator: $0.correlator)
                })
            }
        }
        if result.bulkIds.isEmpty, let firstError { throw firstError }
        return result
    }

    // MARK: reconciling

    /// Replays the sends that rows left `queued` belong to, with the same correlators, and records
    /// the platform's answers. Rows that cannot be replayed are marked failed with the reason.
    @discardableResult
    public func reconcileQueued() async -> ReconcileReport {
        var report = ReconcileReport()
        guard let queued = try? ledger.queuedInvitations() else { return report }
        let entries = (try? journal.all()) ?? (sends: [PendingSend](), unreadable: [String]())
        for bad in entries.unreadable { try? journal.remove(id: bad) }
        let sends = entries.sends.filter { !inFlight.contains($0.id) }
        if queued.isEmpty {
            for s in sends { try? journal.remove(id: s.id) }
            return report
        }
        let queuedCorrelators = Set(queued.map(\.correlator))
        var covered = Set<String>()
        for s in entries.sends where inFlight.contains(s.id) {
            for d in s.destinations { if let c = d.messageId { covered.insert(c) } }
        }
        for s in sends {
            let mine = Set(s.destinations.compactMap { $0.messageId }).intersection(queuedCorrelators)
            covered.formUnion(mine)
            guard !mine.isEmpty else {
                try? journal.remove(id: s.id)
                continue
            }
            do {
                let sent = try await send(s.restricted(to: mine), enqueue: false)
                report.reconciled += sent.recipients.count
            } catch InviteError.platformUncertain {
                report.stillQueued += mine.count
            } catch {
                report.failed += mine.count
            }
        }
        let orphans = queued.filter { !covered.contains($0.correlator) }
        if !orphans.isEmpty {
            try? ledger.markFailed(correlators: orphans.map(\.correlator),
                                   reason: "interrupted before the platform answered, and the request could not be replayed; invite again")
            report.failed += orphans.count
        }
        if report.reconciled + report.failed > 0 {
            bus.publish(.toast(level: report.failed > 0 ? .warning : .info,
                               text: "checked \(report.reconciled + report.failed) interrupted invitation(s) with the platform"))
        }
        return report
    }

    // MARK: steps

    private struct Candidate {
        var e164: String
        var personId: Int64?
        var correlator: String
        var clientData: [String]?
    }

    private struct SentChunk {
        var bulkIds: [String]
        var deliveryInfoUrl: String
        var recipients: [InvitedRecipient]
    }

    private func resolveSender(_ given: String?) throws -> String {
        guard let sender = given ?? settings.sender else { throw InviteError.noSender }
        do { try SenderID.validate(sender) } catch { throw InviteError.invalidSender(error) }
        return sender
    }

    private func resolveFields(_ given: [String: String]) throws -> [String: String] {
        for key in given.keys where ClientField(rawValue: key) == nil { throw InviteError.unknownField(key) }
        var fields = given
        if fields[ClientField.senderName.rawValue] == nil, let name = settings.senderName {
            fields[ClientField.senderName.rawValue] = name
        }
        return fields
    }

    private func resolveMessage(_ given: String?) async throws -> ApplicationMessage {
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

    /// The numbers to send to, each once, after the resend policy; everything left out goes to `skipped`.
    private func plan(_ targets: [InviteTarget], fields: [String: String], policy: ResendPolicy,
                      skipped: inout [SkippedRecipient]) throws -> [Candidate] {
        var wanted: [(e164: String, person: Person?)] = []
        for target in targets {
            switch target {
            case .person(let person):
                let invitable = person.invitableNumbers
                for phone in person.phones where !phone.number.isInvitable {
                    let reason = phone.number.invalidReason
                        ?? "a \(phone.number.kind.rawValue) number cannot receive SMS"
                    skipped.append(SkippedRecipient(address: phone.number.e164 ?? phone.number.raw, personId: person.id, reason: reason))
                }
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
        let latest = try ledger.latestStatuses(msisdns: wanted.map(\.e164))
        var seen = Set<String>()
        var out: [Candidate] = []
        for (e164, person) in wanted {
            guard seen.insert(e164).inserted else {
                skipped.append(SkippedRecipient(address: e164, personId: person?.id, reason: "listed more than once in this request"))
                continue
            }
            if case .skip(let reason) = policy.decide(latest: latest[e164]) {
                skipped.append(SkippedRecipient(address: e164, personId: person?.id, reason: reason))
                continue
            }
            var values = fields
            if values[ClientField.receiverName.rawValue] == nil, let person {
                values[ClientField.receiverName.rawValue] = person.displayName
            }
            let data = MessageTemplate.clientData(from: values)
            out.append(Candidate(e164: e164, personId: person?.id, correlator: "hc-" + UUID().uuidString.lowercased(),
                                 clientData: data.isEmpty ? nil : data))
        }
        return out
    }

    /// Journals, queues (unless replaying), calls the platform and records its answer.
    private func send(_ pending: PendingSend, enqueue: Bool) async throws -> SentChunk {
        let correlators = pending.destinations.compactMap(\.messageId)
        inFlight.insert(pending.id)
        defer { inFlight.remove(pending.id) }
        if enqueue {
            try journal.save(pending)
            let rows = pending.destinations.compactMap { d in
                d.messageId.map { QueuedRecipient(msisdn: "+" + d.address, personId: pending.personIds[$0], correlator: $0) }
            }
            do { try ledger.enqueue(rows) } catch {
                try? journal.remove(id: pending.id)
                throw error
            }
        }
        let answer: SendInvitationResponse.SendSmsResponse
        do {
            answer = try await platform.sendInvitation(pending.body)
        } catch {
            switch error {
            case .timeout, .transport:
                throw InviteError.platformUncertain(error.description, queued: correlators.count)
            default:
                try ledger.markFailed(correlators: correlators, reason: error.description)
                try? journal.remove(id: pending.id)
                throw InviteError.platformRefused(error.description)
            }
        }
        let chunk = try record(answer, for: pending)
        try? journal.remove(id: pending.id)
        return chunk
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
            let reason = response == nil ? "the platform did not answer for this number" : response?.reason
            if byBulk[bulkId] == nil { order.append(bulkId) }
            byBulk[bulkId, default: []].append(SendOutcome(correlator: correlator, messageId: response?.messageId,
                                                           status: status, error: reason))
            recipients.append(InvitedRecipient(address: "+" + d.address, messageId: response?.messageId,
                                               personId: pending.personIds[correlator], bulkId: bulkId, status: status,
                                               reason: reason, correlator: correlator))
        }
        for bulkId in order {
            let outcomes = byBulk[bulkId] ?? []
            var bulk = BulkRecord(bulkId: bulkId, createdAt: now, messageKey: pending.messageKey,
                                  messageText: pending.messageText, sender: pending.sender, recipientCount: outcomes.count,
                                  nextPollAt: now.addingTimeInterval(settings.firstPollDelay))
            if let existing = try ledger.bulk(id: bulkId) {
                bulk = existing
                bulk.recipientCount = max(existing.recipientCount, try ledger.recipients(ofBulk: bulkId).count + outcomes.count)
                if bulk.nextPollAt == nil { bulk.nextPollAt = now.addingTimeInterval(settings.firstPollDelay) }
            }
            try ledger.recordSent(bulk: bulk, outcomes: outcomes)
            let refused = outcomes.filter { $0.status.isImpossible }.count
            bus.publish(.bulkSent(BulkSent(bulkId: bulkId, accepted: outcomes.count - refused, refused: refused, at: now)))
        }
        return SentChunk(bulkIds: order, deliveryInfoUrl: answer.deliveryInfoUrl, recipients: recipients)
    }
}
