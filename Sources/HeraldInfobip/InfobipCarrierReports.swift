import Foundation
import HeraldCore
import HeraldEngine
import NIOConcurrencyHelpers

/// Delivery reports as Infobip means them: pushed to the report webhook, or collected from its report queue.
extension InfobipCarrier {
    /// Most reports one collection asks for (the published maximum).
    static let queueLimit = 1000

    /// Infobip's report queue (`GET /sms/3/reports`): each report is given once, so a batch is stored by the engine
    /// before the next is asked for. Collected every `reportInterval`, at once again while batches come full; not
    /// at all while Infobip pushes the reports to the webhook, or when the logs are the way (a terminal's engine).
    public func queuedReports(at now: Date) async throws -> QueuedReports {
        guard settings.reports == .reports, webhook.withLockedValue({ $0 }) == nil else { return QueuedReports(reports: [], more: false) }
        let last = queueCollected.withLockedValue { $0 }
        guard last.more || now.timeIntervalSince(last.at) >= settings.reportInterval else {
            return QueuedReports(reports: [], more: false)
        }
        let answer = try await http.call(InfobipReportsResponse.self, .get, "/sms/3/reports", query: [("limit", "\(Self.queueLimit)")])
        let more = answer.results.count >= Self.queueLimit
        queueCollected.withLockedValue { $0 = (now, more) }
        return QueuedReports(reports: reports(answer.results, at: now), more: more)
    }

    /// The reports of a webhook call (`{"results": […]}`); a report without a messageId is left out.
    public func pushedReports(_ body: Data, at now: Date) throws(CarrierReportsError) -> [CarrierReport] {
        let answer: InfobipReportsResponse
        do { answer = try JSONDecoder().decode(InfobipReportsResponse.self, from: body) } catch {
            throw .unreadable(InfobipHTTP.decodingText(error))
        }
        return reports(answer.results, at: now)
    }

    private func reports(_ results: [InfobipReportsResponse.Report], at now: Date) -> [CarrierReport] {
        results.compactMap { result in
            let ids = result.callbackData.flatMap(Self.heraldIds)
            guard let messageId = result.messageId ?? ids?.messageId, !messageId.isEmpty else { return nil }
            return report(messageId: messageId, status: result.status, error: result.error, price: result.price,
                          bulkId: result.bulkId ?? ids?.bulkId, at: now)
        }
    }

    /// Herald's ids of a message, handed to Infobip as `callbackData` and returned with each of its reports.
    static func callbackData(_ message: OutboundSMS) -> String {
        let ids = ["bulkId": message.bulkId, "messageId": message.messageId]
        let data = (try? JSONSerialization.data(withJSONObject: ids, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    static func heraldIds(_ callbackData: String) -> (bulkId: String?, messageId: String?)? {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(callbackData.utf8))) as? [String: Any] else { return nil }
        return (object["bulkId"] as? String, object["messageId"] as? String)
    }
}

/// At most `perMinute` requests in any 60 seconds, shared by every caller: one asks to take a slot and waits for
/// the oldest to leave the window when there is none.
final class RequestBudget: Sendable {
    let perMinute: Int
    private let taken = NIOLockedValueBox<[Date]>([])
    private let clock: @Sendable () -> Date

    init(perMinute: Int, clock: @escaping @Sendable () -> Date = Date.init) {
        self.perMinute = max(1, perMinute)
        self.clock = clock
    }

    /// Takes a slot, waiting for one up to `maxWait` seconds; a longer wait is thrown as Infobip's own 429 would be.
    func take(maxWait: Double, sleep: @Sendable (Double) async throws -> Void) async throws(InfobipError) {
        while true {
            let wait = taken.withLockedValue { times -> Double in
                let now = clock()
                times.removeAll { now.timeIntervalSince($0) >= 60 }
                if times.count < perMinute {
                    times.append(now)
                    return 0
                }
                return 60 - now.timeIntervalSince(times[0])
            }
            if wait <= 0 { return }
            guard wait <= maxWait else { throw .rateLimited(retryAfter: wait) }
            do { try await sleep(wait) } catch { throw .unreachable("cancelled") }
        }
    }
}
