import Foundation
import HeraldAPI
import HeraldCore
import HeraldEngine
import Logging
import NIOConcurrencyHelpers

/// Infobip's SMS API v3 as the engine's carrier. Messages go out with `POST /sms/3/messages` (one entry per
/// recipient, the engine's messageId as each destination's, split beyond the per-request limit). Reports come as
/// Infobip means them (pushed to the report webhook, or collected from its report queue), or, in a terminal's own
/// engine, from `GET /sms/3/logs`, one call for many bulks; the logs also look up what no report told in time. A
/// message handed over before without a stored answer is first looked up by its messageId, and sent only when
/// Infobip does not know it: never twice.
public struct InfobipCarrier: Carrier {
    let settings: InfobipSettings
    let http: InfobipHTTP
    let notPosted = MessageIds()
    /// The report webhook's address, once the server knows it.
    let webhook = NIOLockedValueBox<URL?>(nil)
    /// One budget for every `GET /sms/3/logs` of this process.
    let logsBudget: RequestBudget
    /// When the report queue was last collected, and whether it had more.
    let queueCollected = NIOLockedValueBox<(at: Date, more: Bool)>((.distantPast, false))
    let log = Logger(label: "herald.infobip")
    /// Infobip keeps logs for 48 hours; a message it still does not know after that will not be reported.
    static let logsKeptFor: TimeInterval = 48 * 3600
    /// The longest a multi-value filter of `GET /sms/3/logs` may be, its values joined by commas (SMS 3.210.0).
    static let maxFilterLength = 2048

    public var handOverLease: TimeInterval { settings.handOverLease }

    public init(settings: InfobipSettings) {
        self.init(settings: settings, sleep: { try await Task.sleep(nanoseconds: UInt64($0 * 1e9)) })
    }

    init(settings: InfobipSettings, sleep: @escaping @Sendable (Double) async throws -> Void) {
        self.settings = settings
        self.logsBudget = RequestBudget(perMinute: settings.logsPerMinute)
        self.http = InfobipHTTP(baseURL: settings.baseURL, authorization: "App \(settings.apiKey)",
                                keySource: settings.apiKeySource, attempts: settings.attempts,
                                maxRetryWait: settings.maxRetryWait, sleep: sleep)
    }

    public func submit(_ messages: [OutboundSMS], at now: Date) async throws -> [CarrierReport] {
        var reports: [CarrierReport] = []
        // Claimed before by this process but provably never posted (a pass stopped before their request): sent now.
        let neverPosted = notPosted.take(messages.filter(\.mayHaveBeenSent).map(\.messageId))
        let toSend = messages.filter { !$0.mayHaveBeenSent || neverPosted.contains($0.messageId) }
        let unsure = messages.filter { $0.mayHaveBeenSent && !neverPosted.contains($0.messageId) }
        if !unsure.isEmpty {
            // A message whose hand-over answer was lost may have been accepted: Infobip cannot tell a repeated POST
            // from a new SMS, so it is looked up, never sent again. Logs promise no delay, so one not found yet is
            // looked up again at its next lease; after the grace period it is uncertain, and only a resend sends it.
            let known = try await logs(where: "messageId", in: unsure.map(\.messageId))
            var waiting = 0
            for message in unsure {
                if let found = known[message.messageId] {
                    reports.append(report(found, messageId: message.messageId, at: now))
                } else if now.timeIntervalSince(message.acceptedAt) < settings.lookupGrace {
                    waiting += 1
                } else {
                    reports.append(CarrierReport(messageId: message.messageId, status: .deliveryUncertain, nextCheckAt: nil,
                                                 reason: Self.notFoundReason(after: settings.lookupGrace)))
                }
            }
            log.info("looked up messages whose hand-over answer was lost", metadata: [
                "known to Infobip": "\(known.count)", "looked up again later": "\(waiting)",
                "uncertain": "\(unsure.count - known.count - waiting)",
            ])
        }
        // One request per bulk and time (Infobip holds a scheduled bulk by its id, at one `sendAt`).
        let chunks = Dictionary(grouping: toSend, by: { BulkTime(bulkId: $0.bulkId, sendAt: $0.sendAt) })
            .sorted { ($0.key.bulkId, $0.key.sendAt ?? .distantPast) < ($1.key.bulkId, $1.key.sendAt ?? .distantPast) }
            .flatMap { key, group in
                stride(from: 0, to: group.count, by: settings.maxMessagesPerRequest).map {
                    (key.bulkId, Array(group[$0..<min(group.count, $0 + settings.maxMessagesPerRequest)]))
                }
            }
        // Requests go out `requestsInFlight` at a time; their answers are taken in order, by the rules of one at a time.
        var next = 0
        while next < chunks.count {
            let wave = Array(chunks[next..<min(chunks.count, next + max(1, settings.requestsInFlight))])
            let answers = await withTaskGroup(of: (Int, Result<[CarrierReport], InfobipError>).self) { group in
                for (offset, (bulkId, chunk)) in wave.enumerated() {
                    group.addTask {
                        do { return (offset, .success(try await self.send(chunk, bulkId: bulkId, at: now))) } catch let error as InfobipError {
                            return (offset, .failure(error))
                        } catch {
                            return (offset, .failure(.unreadable("\(error)")))
                        }
                    }
                }
                var all: [(Int, Result<[CarrierReport], InfobipError>)] = []
                for await answer in group { all.append(answer) }
                return all.sorted { $0.0 < $1.0 }.map(\.1)
            }
            next += wave.count
            var stop: InfobipError?
            for (offset, answer) in answers.enumerated() {
                let chunk = wave[offset].1
                switch answer {
                case .success(let answered):
                    reports += answered
                case .failure(let error) where error.isPermanent:
                    // Refused for good (a refused key, an invalid request): this chunk fails with Infobip's reason; none
                    // of it went out (those handed over before were looked up first).
                    reports += chunk.map {
                        CarrierReport(messageId: $0.messageId, status: .rejected, nextCheckAt: nil, reason: error.description)
                    }
                    log.warning("Infobip refused messages", metadata: ["count": "\(chunk.count)", "cause": "\(error.description)"])
                    stop = stop ?? error
                case .failure(let error):
                    // Not posted when Infobip said to wait (429); a chunk whose answer was lost may have been accepted: it
                    // stays claimed and is looked up.
                    if error.isRateLimit { notPosted.add(chunk.map(\.messageId)) }
                    stop = stop ?? error
                }
            }
            guard let stop else { continue }
            // The chunks after the wave were never posted: refused with the same reason after a permanent refusal,
            // else sent (not looked up) when they come back.
            let untried = chunks[next...].flatMap(\.1)
            if stop.isPermanent {
                reports += untried.map {
                    CarrierReport(messageId: $0.messageId, status: .rejected, nextCheckAt: nil, reason: stop.description)
                }
            } else {
                notPosted.add(untried.map(\.messageId))
                if reports.isEmpty { throw stop }
                log.warning("send stopped part way", metadata: ["cause": "\(stop.description)"])
            }
            break
        }
        return reports
    }

    /// Why a message is uncertain: its hand-over answer was lost and Infobip's logs never showed it.
    static func notFoundReason(after grace: Double) -> String {
        "uncertain — not found at Infobip \(Int(grace / 60)) min after its hand-over answer was lost; "
            + "it is not sent again unless resent"
    }

    /// Has Infobip push every later message's delivery reports to `url` (the server's report webhook).
    public func pushReports(to url: URL) { webhook.withLockedValue { $0 = url } }

    /// One send request; a report per message Infobip answered for.
    private func send(_ chunk: [OutboundSMS], bulkId: String, at now: Date) async throws -> [CarrierReport] {
        let pushTo = settings.reports == .reports ? webhook.withLockedValue { $0 } : nil
        let sendAt = chunk.first?.sendAt
        var request = InfobipSendRequest(bulkId: bulkId, sendAt: sendAt, messages: chunk.map { message in
            .init(sender: message.sender, destinations: [.init(to: message.address, messageId: message.messageId)],
                  content: .init(text: message.text), webhooks: pushTo.map {
                      .init(delivery: .init(url: $0.absoluteString, intermediateReport: true, notify: true),
                            contentType: "application/json", callbackData: Self.callbackData(message))
                  })
        })
        settings.sendOptions.apply(to: &request)
        let body: Data
        do { body = try JSONEncoder().encode(request) } catch { throw InfobipError.unreadable("cannot encode the request") }
        let answer = try await http.call(InfobipSendResponse.self, .post, "/sms/3/messages", body: body, repeatable: false)
        let asked = Set(chunk.map(\.messageId))
        return answer.messages.compactMap { message -> CarrierReport? in
            guard let id = message.messageId, asked.contains(id) else { return nil }
            let status = InfobipStatusMapping.deliveryStatus(message.status)
            if let sendAt, sendAt > now, !status.isImpossible {
                // Infobip holds it until its time: first asked about after it left.
                return CarrierReport(messageId: id, status: .scheduled,
                                     nextCheckAt: next(after: .messageWaiting, at: sendAt))
            }
            return CarrierReport(messageId: id, status: status, nextCheckAt: next(after: status, at: now),
                                 reason: InfobipStatusMapping.reason(status: message.status, error: nil))
        }
    }

    // MARK: - Scheduled bulks

    /// Infobip holds a scheduled bulk itself (`options.schedule.sendAt`): it leaves at its time whether Herald runs.
    public var holdsScheduled: Bool { true }

    /// `PUT /sms/1/bulks/status` with `CANCELED`: all of the bulk, or nothing when it had left. A refusal is told apart
    /// by asking the bulk's status: one that is PROCESSING or FINISHED left whole; CANCELED was taken back (a repeat
    /// of a cancel whose answer was lost).
    public func cancel(bulkId: String) async throws -> Bool {
        do {
            let answer = try await http.setStatus(bulkId: bulkId, status: .canceled)
            return answer.status == .canceled || answer.status == nil
        } catch {
            guard case .rejected = error else { throw error }
        }
        let now = try await http.status(bulkId: bulkId)
        if now.status == .canceled { return true }
        if now.status?.hasLeft == true { return false }
        throw InfobipError.unreadable("Infobip refused to cancel bulk \(bulkId), which is \(now.status?.rawValue ?? "in no known state")")
    }

    /// `PUT /sms/1/bulks` with the new `sendAt`.
    public func reschedule(bulkId: String, to sendAt: Date) async throws {
        _ = try await http.reschedule(bulkId: bulkId, sendAt: sendAt)
    }

    public func reports(_ messages: [InFlightSMS], at now: Date) async throws -> [CarrierReport] {
        let found = try await logs(where: "bulkId", in: Array(Set(messages.map(\.bulkId))).sorted())
        return messages.compactMap { message -> CarrierReport? in
            if let log = found[message.messageId] { return report(log, messageId: message.messageId, at: now) }
            if now.timeIntervalSince(message.acceptedAt) > Self.logsKeptFor {
                // Infobip's logs are gone. Its last word stands when it was "delivered to the operator": the message
                // reached the network, and no later report will come. Otherwise nothing is known.
                if message.status == .deliveredToNetwork {
                    return CarrierReport(messageId: message.messageId, status: .deliveredToNetwork, nextCheckAt: nil)
                }
                return CarrierReport(messageId: message.messageId, status: .deliveryUncertain, nextCheckAt: nil,
                                     reason: "Infobip kept no log of it after 48 hours")
            }
            return CarrierReport(messageId: message.messageId, status: message.status,
                                 nextCheckAt: now.addingTimeInterval(settings.reportInterval))
        }
    }

    /// Logs whose `name` (`messageId`, `bulkId`) is one of `values`, asked in requests whose joined values stay within
    /// Infobip's 2,048 characters; by messageId.
    private func logs(where name: String, in values: [String]) async throws -> [String: InfobipLogsResponse.Log] {
        var found: [String: InfobipLogsResponse.Log] = [:]
        for batch in Self.filterBatches(values) {
            found.merge(try await logs(query: batch.map { (name, $0) })) { first, _ in first }
        }
        return found
    }

    /// `values` cut into batches whose comma-joined length is at most `maxJoined` (Infobip's limit for a multi-value
    /// filter of `GET /sms/3/logs`), in order.
    static func filterBatches(_ values: [String], maxJoined: Int = maxFilterLength) -> [[String]] {
        var batches: [[String]] = []
        var current: [String] = []
        var length = 0
        for value in values {
            let added = (current.isEmpty ? 0 : 1) + value.count
            if !current.isEmpty, length + added > maxJoined {
                batches.append(current)
                current = []
                length = 0
            }
            length += current.isEmpty ? value.count : added
            current.append(value)
        }
        if !current.isEmpty { batches.append(current) }
        return batches
    }

    /// Every page of logs matching `query`, by messageId.
    private func logs(query: [(String, String)]) async throws -> [String: InfobipLogsResponse.Log] {
        var found: [String: InfobipLogsResponse.Log] = [:]
        var cursor: String?
        var pages = 0
        repeat {
            var items = query + [("limit", "1000"), ("useCursor", "true")]
            if let cursor { items.append(("cursor", cursor)) }
            try await logsBudget.take(maxWait: settings.maxRetryWait, sleep: http.sleep)
            let page = try await http.call(InfobipLogsResponse.self, .get, "/sms/3/logs", query: items)
            for log in page.results { if let id = log.messageId, found[id] == nil { found[id] = log } }
            cursor = page.cursor?.nextCursor.flatMap { $0.isEmpty ? nil : $0 }
            pages += 1
        } while cursor != nil && pages < 1000
        return found
    }

    private func report(_ log: InfobipLogsResponse.Log, messageId: String, at now: Date) -> CarrierReport {
        report(messageId: messageId, status: log.status, error: log.error, price: log.price, at: now)
    }

    func report(messageId: String, status infobipStatus: InfobipStatus?, error: InfobipReportError?,
                price: InfobipLogsResponse.Price?, bulkId: String? = nil, at now: Date) -> CarrierReport {
        let status = InfobipStatusMapping.deliveryStatus(infobipStatus)
        return CarrierReport(messageId: messageId, status: status, nextCheckAt: next(after: status, at: now),
                             price: price?.pricePerMessage, currency: price?.currency,
                             reason: InfobipStatusMapping.reason(status: infobipStatus, error: error),
                             permanent: status.isImpossible && (error?.permanent ?? false), bulkId: bulkId)
    }

    /// When to ask about a message still on its way: soon when the logs are how reports come, else at the deadline by
    /// which a report should have told (the logs then recover what a crash lost).
    private func next(after status: DeliveryStatus, at now: Date) -> Date? {
        guard !InfobipStatusMapping.isFinal(status) else { return nil }
        return now.addingTimeInterval(settings.reports == .logs ? settings.reportInterval : settings.reportDeadline)
    }
}

/// The requests of one hand-over: a bulk's messages of one time.
private struct BulkTime: Hashable {
    var bulkId: String
    var sendAt: Date?
}

/// Message ids this process claimed but never posted, so that they are sent, not looked up, when they come back.
/// Kept in memory: after a restart every message that comes back is looked up (never twice, at worst uncertain).
final class MessageIds: @unchecked Sendable {
    private let lock = NSLock()
    private var ids: Set<String> = []

    func add(_ more: [String]) { lock.withLock { ids.formUnion(more) } }

    /// Those of `candidates` that were added, removed from the set.
    func take(_ candidates: [String]) -> Set<String> {
        lock.withLock {
            let found = ids.intersection(candidates)
            ids.subtract(found)
            return found
        }
    }
}
