import Crypto
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import Hummingbird

/// The stand-in's routes: `POST /sms/3/messages`, `GET /sms/3/logs`, `GET /sms/3/reports`, `GET` and `PUT` of
/// `/sms/1/bulks` and `/sms/1/bulks/status` (scheduled bulks, `StandInBulkRoutes.swift`),
/// `GET /mobile/1/user/{externalUserId}/inbox/apns/messages`, `POST /mobile/2/messages/seen` and `GET /sms/1/inbox/reports`
/// (received SMS, `StandInInbound.swift`, with the test's own `POST /stand-in/inbound` and `/stand-in/inbound-webhooks`).
public struct StandInRoutes: Sendable {
    let state: StandInState

    func respond(_ request: Request) async -> Response {
        var request = request
        let path = request.uri.path
        let query = (request.uri.query ?? "").split(separator: "&").map { String($0).removingPercentEncoding ?? String($0) }
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName.lowercased()] = field.value }
        let body = (try? await request.collectBody(upTo: 4 << 20)).map { Data($0.readableBytesView) } ?? Data()
        let answer: (Int, [String: String], Data)
        if let fault = await state.takeFault(path: path) {
            if fault.afterProcessing {
                // Only a request carried out can lose its answer: one refused (a probe with no messages) keeps the fault.
                let carried = await route(method: request.method.rawValue, path: path, query: query, headers: headers, body: body)
                if (200..<300).contains(carried.0) {
                    await state.noteInSentLog("answer-lost \(path)")
                    answer = (fault.status, fault.headers, Data(fault.body.utf8))
                } else {
                    await state.putBack(fault)
                    answer = carried
                }
            } else {
                answer = (fault.status, fault.headers, Data(fault.body.utf8))
            }
        } else {
            answer = await route(method: request.method.rawValue, path: path, query: query, headers: headers, body: body)
        }
        let delay = await state.sendAnswerDelay
        if delay > 0, request.method == .post, path == "/sms/3/messages", (200..<300).contains(answer.0) { try? await Task.sleep(nanoseconds: UInt64(delay * 1e9)) }
        await state.record(StandInState.Recorded(method: request.method.rawValue, path: path, query: query, headers: headers,
                                                 body: body, status: answer.0))
        var fields = HTTPFields()
        fields[.contentType] = "application/json"
        for (name, value) in answer.1 { if let n = HTTPField.Name(name) { fields[n] = value } }
        return Response(status: .init(code: answer.0), headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.2)))
    }

    private func route(method: String, path: String, query: [String], headers: [String: String],
                       body: Data) async -> (Int, [String: String], Data) {
        // Scheduled bulks whose time came leave before anything is answered: every answer sees them gone.
        await releaseDue()
        let segments = path.split(separator: "/").map(String.init)
        switch (method, segments) {
        case ("POST", ["sms", "3", "messages"]):
            if let refusal = await authorize(headers, anyOf: StandInState.sendScopes) { return refusal }
            return await send(body)
        case ("GET", ["sms", "3", "logs"]):
            if let refusal = await authorize(headers, anyOf: StandInState.logsScopes) { return refusal }
            guard await state.admitLogsRequest() else { return Self.tooManyRequestsV3 }
            return await logs(query)
        case ("GET", ["sms", "3", "reports"]):
            if let refusal = await authorize(headers, anyOf: StandInState.logsScopes) { return refusal }
            return await reports(query)
        case ("GET", let s) where s.count == 7 && s[0] == "mobile" && s[1] == "1" && s[2] == "user" && s[4] == "inbox":
            if let denied = await mobileAuth(headers) { return denied }
            let user = s[3].removingPercentEncoding ?? s[3]
            return await inboxPage(user: user, query: query, headers: headers)
        case ("GET", ["sms", "1", "inbox", "reports"]):
            if let refusal = await authorizeLegacy(headers, anyOf: StandInState.inboundScopes) { return refusal }
            return await inboundMessages(query)
        case ("POST", ["stand-in", "inbound"]):
            return await controlInbound(body)
        case ("POST", ["stand-in", "inbound-again"]):
            return await controlInboundAgain(body)
        case ("POST", ["stand-in", "inbound-webhooks"]):
            return await controlInboundWebhooks(body)
        case (_, let s) where s.count >= 3 && s[0] == "sms" && s[1] == "1" && s[2] == "bulks":
            return await bulks(method: method, segments: s, query: query, headers: headers, body: body)
        case ("POST", ["mobile", "2", "messages", "seen"]):
            if let denied = await mobileAuth(headers) { return denied }
            return await seen(body)
        default:
            return (404, [:], Self.json(["requestError": ["serviceException": ["messageId": "NOT_FOUND", "text": "Not found"]]]))
        }
    }

    /// E401 for a key Infobip does not know, E403 for one without any of the scopes the endpoint names.
    private func authorize(_ headers: [String: String], anyOf scopes: Set<String>) async -> (Int, [String: String], Data)? {
        guard let header = headers["authorization"], header.hasPrefix("App "),
              let granted = await state.scopes(ofKey: String(header.dropFirst(4))) else { return Self.unauthorizedV3 }
        return granted.isDisjoint(with: scopes) ? Self.forbiddenV3 : nil
    }

    // MARK: - SMS

    private func send(_ body: Data) async -> (Int, [String: String], Data) {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            return (400, [:], Self.badRequestV3([("", "the body is not a JSON object")]))
        }
        let now = await state.now()
        let violations = StandInSchema.smsSend.violations(of: object) + StandInSendOptions.violations(in: object)
            + StandInSendOptions.scheduleViolations(in: object, now: now)
        guard violations.isEmpty, let messages = object["messages"] as? [[String: Any]] else {
            return (400, [:], Self.badRequestV3(violations))
        }
        let options = object["options"] as? [String: Any]
        // A scheduled request: its messages are held in their bulk until `sendAt` (already checked).
        let sendAt = ((options?["schedule"] as? [String: Any])?["sendAt"] as? String).flatMap(StandInSendOptions.sendAt)
        var bulkId = (options?["schedule"] as? [String: Any])?["bulkId"] as? String ?? ""
        if bulkId.isEmpty { bulkId = await state.newId() }
        var answered: [SendAnswer.Message] = []
        var accepted: [StandInState.Sent] = []
        for (i, message) in messages.enumerated() {
            let sender = message["sender"] as? String ?? ""
            // The schema held: a sender, content with its text, and destinations are there.
            let text = (message["content"] as? [String: Any])?["text"] as? String ?? ""
            let destinations = message["destinations"] as? [[String: Any]] ?? []
            let webhooks = message["webhooks"] as? [String: Any]
            let delivery = webhooks?["delivery"] as? [String: Any]
            let callbackData = webhooks?["callbackData"] as? String
            if let url = delivery?["url"] as? String, URL(string: url)?.host == nil {
                return (400, [:], Self.badRequestV3([("messages[\(i)].webhooks.delivery.url", "must be a valid URL")]))
            }
            for d in destinations {
                let to = d["to"] as? String ?? ""
                var id = d["messageId"] as? String ?? ""
                if id.isEmpty { id = await state.newId() }
                accepted.append(StandInState.Sent(messageId: id, bulkId: bulkId, destination: to, sender: sender, text: text,
                                                  sentAt: now, webhook: delivery?["url"] as? String,
                                                  intermediateReports: delivery?["intermediateReport"] as? Bool ?? false,
                                                  callbackData: callbackData))
                answered.append(SendAnswer.Message(messageId: id, destination: to, status: .accepted, details: .init(messageCount: 1)))
            }
        }
        if let sendAt {
            if let refusal = await state.hold(accepted, bulkId: bulkId, sendAt: sendAt) {
                return (400, [:], Self.badRequestV3([("options.schedule.bulkId", refusal)]))
            }
            await releaseDue()
            await keepReleasing()
        } else {
            for message in accepted {
                await state.record(message)
                await report(message)
            }
        }
        // Encoded from types, not dictionaries: Foundation's JSONSerialization would spend more of the two cores
        // than Herald does on the same request, and the benchmark runs the stand-in in its own process.
        do { return (200, [:], try JSONEncoder().encode(SendAnswer(bulkId: bulkId, messages: answered))) } catch {
            return (500, [:], Self.json(["requestError": ["serviceException": ["messageId": "GENERAL_ERROR", "text": "\(error)"]]]))
        }
    }

    /// The reports of an accepted message: pushed to its webhook shortly after (intermediate ones when asked for),
    /// else queued for `GET /sms/3/reports`.
    func report(_ message: StandInState.Sent) async {
        let fate = await state.fate(of: message.destination)
        guard fate != .neverLogged else { return }
        guard let url = message.webhook.flatMap(URL.init(string:)) else {
            await state.queueReport(message)
            return
        }
        var sequence = Self.reportSequence(message, fate: fate)
        if !message.intermediateReports { sequence = Array(sequence.suffix(1)) }
        let state = self.state
        let (delay, repeats) = (await state.webhookDelay, await state.webhookRepeats)
        Task.detached {
            try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
            for report in sequence {
                for _ in 0..<repeats {
                    var request = URLRequest(url: url)
                    request.httpMethod = "POST"
                    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                    request.httpBody = Self.json(["results": [report]])
                    let answer = ((try? await URLSession.shared.data(for: request))?.1 as? HTTPURLResponse)?.statusCode ?? 0
                    let status = (report["status"] as? [String: Any])?["name"] as? String ?? ""
                    await state.recordWebhook(.init(url: url.absoluteString, messageId: message.messageId, status: status, answer: answer))
                }
            }
        }
    }

    /// A message's reports in order, shaped as Infobip pushes and queues them: one for most fates; an intermediate
    /// "delivered to operator" before the handset for `viaOperator`; none for `neverLogged`.
    public static func reportSequence(_ message: StandInState.Sent, fate: StandInState.Fate) -> [[String: Any]] {
        guard fate != .neverLogged else { return [] }
        var first = message
        first.reads = 0
        var logs = [log(first, fate: fate)]
        if fate == .viaOperator {
            var later = message
            later.reads = 1
            logs.append(log(later, fate: fate))
        }
        return logs.map { entry in
            var report = entry
            report["to"] = report.removeValue(forKey: "destination")
            report["messageCount"] = report.removeValue(forKey: "smsCount")
            report.removeValue(forKey: "content")
            if let data = message.callbackData { report["callbackData"] = data }
            return report
        }
    }

    private func reports(_ query: [String]) async -> (Int, [String: String], Data) {
        func value(_ key: String) -> String? { queryValues(query, key).first }
        let limit = value("limit").flatMap(Int.init) ?? 50
        guard (1...1000).contains(limit) else { return (400, [:], Self.badRequestV3([("limit", "must be less than or equal to 1000")])) }
        let taken = await state.takeReports(limit: limit, bulkId: value("bulkId"), messageId: value("messageId"))
        return (200, [:], Data(("{\"results\":[" + taken.joined(separator: ",") + "]}").utf8))
    }

    private func logs(_ query: [String]) async -> (Int, [String: String], Data) {
        func values(_ key: String) -> [String] { queryValues(query, key) }
        // The published limit: a multi-value filter's values, joined, at most 2,048 characters.
        for key in ["bulkId", "messageId"] where values(key).joined(separator: ",").count > 2048 {
            return (400, [:], Self.badRequestV3([(key, "size must be between 0 and 2048")]))
        }
        let bulks = Set(values("bulkId"))
        let ids = Set(values("messageId"))
        let asked = Int(values("limit").first ?? "") ?? 50
        guard (1...1000).contains(asked) else { return (400, [:], Self.badRequestV3([("limit", "must be less than or equal to 1000")])) }
        let limit = min(asked, await state.logsPageSize)
        let offset = values("cursor").first.flatMap { Int($0.dropFirst("after-".count)) } ?? 0
        let all = await state.logsExpired ? [] : await state.sentInOrder.filter {
            $0.stage != .canceled && (bulks.isEmpty || bulks.contains($0.bulkId)) && (ids.isEmpty || ids.contains($0.messageId))
        }
        var results: [[String: Any]] = []
        for message in all.dropFirst(offset).prefix(limit) {
            if message.stage == .held {
                results.append(Self.heldLog(message))
                continue
            }
            let fate = await state.fate(of: message.destination)
            if fate == .neverLogged { continue }
            results.append(Self.log(message, fate: fate))
            await state.noteRead(message.messageId)
        }
        var page: [String: Any] = ["results": results]
        if offset + limit < all.count {
            page["cursor"] = ["limit": limit, "nextCursor": "after-\(offset + limit)"]
        } else {
            page["cursor"] = ["limit": limit]
        }
        return (200, [:], Self.json(page))
    }

    /// One log entry as `/sms/3/logs` writes it; the status depends on the fate and on how often it was read.
    static func log(_ m: StandInState.Sent, fate: StandInState.Fate) -> [String: Any] {
        let noError: [String: Any] = ["groupId": 0, "groupName": "OK", "id": 0, "name": "NO_ERROR",
                                      "description": "No Error", "permanent": false]
        var shown: [String: Any]
        var error = noError
        switch fate {
        case .delivered:
            shown = Self.status(group: 3, "DELIVERED", id: 5, "DELIVERED_TO_HANDSET", "Message delivered to handset")
        case .viaOperator:
            shown = m.reads == 0
                ? Self.status(group: 3, "DELIVERED", id: 2, "DELIVERED_TO_OPERATOR", "Message delivered to operator")
                : Self.status(group: 3, "DELIVERED", id: 5, "DELIVERED_TO_HANDSET", "Message delivered to handset")
        case .atOperator:
            shown = Self.status(group: 3, "DELIVERED", id: 2, "DELIVERED_TO_OPERATOR", "Message delivered to operator")
        case .undeliverable:
            shown = Self.status(group: 2, "UNDELIVERABLE", id: 9, "UNDELIVERABLE_NOT_DELIVERED", "Message sent not delivered")
            error = ["groupId": 1, "groupName": "HANDSET_ERRORS", "id": 27, "name": "EC_ABSENT_SUBSCRIBER",
                     "description": "Absent Subscriber", "permanent": true]
        case .expired:
            shown = Self.status(group: 4, "EXPIRED", id: 15, "EXPIRED_EXPIRED", "Message expired")
            error = ["groupId": 1, "groupName": "HANDSET_ERRORS", "id": 1, "name": "EC_UNKNOWN_SUBSCRIBER",
                     "description": "Unknown Subscriber", "permanent": false]
        case .rejected:
            shown = Self.status(group: 5, "REJECTED", id: 6, "REJECTED_NETWORK", "Network is forbidden")
            error = ["groupId": 3, "groupName": "OPERATOR_ERRORS", "id": 4000, "name": "EC_NETWORK_NOT_ALLOWED",
                     "description": "Network not allowed", "permanent": true]
        case .unknownGroup:
            shown = Self.status(group: 42, "TELEPORTED", id: 420, "TELEPORTED_SOMEWHERE", "A status Herald has never heard of")
        case .neverLogged:
            shown = [:]
        }
        let stamp = stampFormatter.withLock { $0.string(from: m.sentAt) }.replacingOccurrences(of: "Z", with: ".000+0000")
        return [
            "sender": m.sender, "destination": m.destination, "bulkId": m.bulkId, "messageId": m.messageId,
            "sentAt": stamp, "doneAt": stamp, "smsCount": 1,
            "price": ["pricePerMessage": 0.0075, "currency": "EUR"],
            "status": shown, "error": error,
            "platform": ["entityId": "", "applicationId": "default"],
            "content": ["text": m.text],
        ]
    }

    /// The log of a message held in its scheduled bulk: accepted and pending, nothing done yet (no `doneAt`), whatever
    /// its fate will be.
    static func heldLog(_ m: StandInState.Sent) -> [String: Any] {
        var entry = log(m, fate: .delivered)
        entry["status"] = SendAnswer.Status.accepted.object
        entry.removeValue(forKey: "doneAt")
        return entry
    }

    /// One formatter for every stamp (making one per message costs more than the rest of a send request).
    static let stampFormatter = LockedFormatter(ISO8601DateFormatter())

    static let millisecondFormatter: LockedFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return LockedFormatter(formatter)
    }()

    /// A time as Infobip writes `sendAt` in its answers: `2021-08-25T16:00:00.000+0000`.
    static func sendAtText(_ date: Date) -> String {
        millisecondFormatter.withLock { $0.string(from: date) }.replacingOccurrences(of: "Z", with: "+0000")
    }

    static func status(group: Int, _ groupName: String, id: Int, _ name: String, _ description: String) -> [String: Any] {
        ["groupId": group, "groupName": groupName, "id": id, "name": name, "description": description]
    }

    // MARK: - Mobile Messaging inbox

    private func mobileAuth(_ headers: [String: String]) async -> (Int, [String: String], Data)? {
        let auth = headers["authorization"] ?? ""
        let code = state.applicationCode
        let byCode = auth == "App \(code)"
        let byToken = auth.hasPrefix("Bearer ") && auth.count > "Bearer ".count
        // The SDKs send the first 10 hex digits of the SHA-256 of the application code, not the code.
        let hash = SHA256.hash(data: Data(code.utf8)).map { String(format: "%02x", $0) }.joined().prefix(10)
        guard byCode || byToken, headers["applicationcode"] == String(hash) else {
            return (401, [:], Self.json(["requestError": ["serviceException": [
                "messageId": "UNAUTHORIZED", "text": "Invalid Application Id"]]]))
        }
        return nil
    }

    private func inboxPage(user: String, query: [String], headers: [String: String]) async -> (Int, [String: String], Data) {
        func value(_ key: String) -> String? { queryValues(query, key).first }
        var extra: [String: String] = [:]
        if let moved = await state.moveInboxTo, headers["host"].map({ !moved.contains($0) }) ?? true {
            extra["New-Base-URL"] = moved
        }
        let payloads = await state.inboxPayloads(user: user).compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        func sent(_ p: [String: Any]) -> Int64 { ((p["internalData"] as? [String: Any])?["sendDateTime"] as? NSNumber)?.int64Value ?? 0 }
        func topic(_ p: [String: Any]) -> String? { ((p["internalData"] as? [String: Any])?["inbox"] as? [String: Any])?["topic"] as? String }
        func seen(_ p: [String: Any]) -> Bool { ((p["internalData"] as? [String: Any])?["inbox"] as? [String: Any])?["seen"] as? Bool ?? false }
        let from = value("dateTimeFrom").flatMap(Int64.init)
        let to = value("dateTimeTo").flatMap(Int64.init)
        let wanted = value("messageTopic")
        let filtered = payloads.filter { p in
            (from.map { sent(p) >= $0 } ?? true) && (to.map { sent(p) < $0 } ?? true) && (wanted.map { topic(p) == $0 } ?? true)
        }.sorted { sent($0) > sent($1) }
        let limit = value("limit").flatMap(Int.init) ?? 20
        let page: [String: Any] = [
            "countTotal": payloads.count, "countUnread": payloads.filter { !seen($0) }.count,
            "countTotalFiltered": filtered.count, "countUnreadFiltered": filtered.filter { !seen($0) }.count,
            "messages": Array(filtered.prefix(limit)),
        ]
        return (200, extra, Self.json(page))
    }

    private func seen(_ body: Data) async -> (Int, [String: String], Data) {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let user = object["externalUserId"] as? String,
              let messages = object["messages"] as? [[String: Any]] else {
            return (400, [:], Self.json(["requestError": ["serviceException": [
                "messageId": "BAD_REQUEST", "text": "externalUserId and messages are required"]]]))
        }
        let marks = messages.compactMap { m -> StandInState.SeenMark? in
            guard let id = m["messageId"] as? String else { return nil }
            return StandInState.SeenMark(messageId: id, timestampDelta: (m["timestampDelta"] as? NSNumber)?.int64Value ?? -1)
        }
        await state.markSeen(marks, user: user)
        return (200, [:], Data())
    }

    // MARK: - Envelopes

    static let unauthorizedV3: (Int, [String: String], Data) = (401, [:], json([
        "errorCode": "E401", "description": "The request lacks valid authentication credentials for the requested resource.",
        "action": "Check the API key in the Authorization header.", "violations": [Any](), "resources": [Any](),
    ]))

    static let forbiddenV3: (Int, [String: String], Data) = (403, [:], json([
        "errorCode": "E403", "description": "Insufficient permissions to access the requested resource.",
        "action": "Check the scopes of the API key.", "violations": [Any](), "resources": [Any](),
    ]))

    static let tooManyRequestsV3: (Int, [String: String], Data) = (429, ["Retry-After": "60"], json([
        "errorCode": "E429", "description": "Too many requests sent.",
        "action": "Slow down and try again later.", "violations": [Any](), "resources": [Any](),
    ]))

    static func badRequestV3(_ violations: [(String, String)]) -> Data {
        json(["errorCode": "E400", "description": "Request cannot be processed.",
              "action": "Check the syntax, violations and adjust the request.",
              "violations": violations.map { ["property": $0.0, "violation": $0.1] }, "resources": [Any]()])
    }

    public static func json(_ object: Any) -> Data {
        (try? JSONSerialization.data(withJSONObject: object)) ?? Data("{}".utf8)
    }
}

/// A formatter used from any task, one at a time.
final class LockedFormatter: @unchecked Sendable {
    private let lock = NSLock()
    private let formatter: ISO8601DateFormatter
    init(_ formatter: ISO8601DateFormatter) { self.formatter = formatter }
    func withLock<T>(_ body: (ISO8601DateFormatter) -> T) -> T { lock.withLock { body(formatter) } }
}

/// The answer to `POST /sms/3/messages`: per message its id, destination, status and part count.
struct SendAnswer: Encodable {
    let bulkId: String
    let messages: [Message]

    struct Message: Encodable {
        let messageId: String
        let destination: String
        let status: Status
        let details: Details
    }

    struct Status: Encodable {
        let groupId: Int
        let groupName: String
        let id: Int
        let name: String
        let description: String

        /// An accepted message, as Infobip names it.
        static let accepted = Status(groupId: 1, groupName: "PENDING", id: 26, name: "PENDING_ACCEPTED",
                                     description: "Message sent to next instance")

        /// The status as a logs entry holds it.
        var object: [String: Any] { ["groupId": groupId, "groupName": groupName, "id": id, "name": name, "description": description] }
    }

    struct Details: Encodable { let messageCount: Int }
}
