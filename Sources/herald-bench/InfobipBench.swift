import AsyncHTTPClient
import Foundation
import HeraldAPI
import HeraldEmbedded
import HeraldEngine
import HeraldInfobip
import HeraldServer
import HeraldTestKit
import NIOCore

/// Infobip as the carrier of a server, against the stand-in on a loopback port (in this process, so it shares the two
/// cores): messages the carrier leader hands to Infobip per second, delivery reports pushed to the server's webhook
/// and stored per second, and how long a pushed report takes to reach event-stream subscribers.
func infobipBench(dir: URL) async throws {
    let state = StandInState()
    // The bench posts the reports itself, timed; the stand-in's own calls of the webhook would come before them.
    await state.setWebhookDelay(3600)
    let (standInURL, standIn) = try await InfobipStandIn.start(state: state)
    defer { standIn.cancel() }
    var settings = InfobipSettings(baseURL: standInURL, apiKey: state.apiKey)
    settings.reports = .reports
    let carrier = InfobipCarrier(settings: settings)
    var config = EngineConfig()
    config.collectReportsOnRead = false
    config.handOverOnSend = false
    config.plainLink = "https://invite.example.com/join"
    let engine = try PlatformEngine.open(at: dir.appendingPathComponent("infobip-engine.sqlite"), config: config, carrier: carrier)
    let client = try await EmbeddedPlatform.sandboxClient(engine: engine)
    let messageKey = try await client.applicationSettings().defaultMessageKey ?? ""

    // Messages handed to Infobip per second by the leader's carrier pass: 20,000 accepted first, then one pass. As on a
    // server with a public URL, each message asks Infobip to push its reports, so none wait in Infobip's report queue
    // for the pass to collect. (The stand-in's own pushes are an hour away; the bench posts the reports itself below,
    // to the server's real webhook.)
    carrier.pushReports(to: URL(string: "http://127.0.0.1:9/1/carriers/infobip/reports/not-yet")!)
    let total = 20_000
    for start in stride(from: 0, to: total, by: 1000) {
        _ = try await client.sendInvitation(SendInvitationBody(messageKey: messageKey, sender: "Herald", destinations: (start..<start + 1000).map {
            .init(address: "3859\(String(format: "%08d", 10_000_000 + $0))")
        }))
    }
    let handStart = DispatchTime.now().uptimeNanoseconds
    let pass = try await engine.runCarrierPass()
    let handSeconds = Double(DispatchTime.now().uptimeNanoseconds - handStart) / 1e9
    let received = await state.sentInOrder.count
    say("infobip:  \(fmt(Double(pass.handed) / handSeconds, 0)) messages handed to Infobip/s by the leader (\(pass.handed) in "
        + "\(fmt(handSeconds)) s, \(settings.maxMessagesPerRequest) per request; the stand-in took \(received))")

    let (url, serving) = try await startServer(engine)
    defer { serving.cancel() }
    let webhook = try await engine.carrierReportsURL(under: url)
    carrier.pushReports(to: webhook)
    let http = benchClient(connections: 64)
    defer { _ = http.shutdown() }

    // Reports stored per second: Infobip's buckets of 100 (its default), 4 calls at once.
    let sent = await state.sentInOrder
    let bodies = stride(from: 0, to: sent.count, by: 100).map { start in
        reportsBody(sent[start..<min(sent.count, start + 100)].map { ($0.messageId, $0.bulkId) })
    }
    let storeStart = DispatchTime.now().uptimeNanoseconds
    try await withThrowingTaskGroup(of: Void.self) { group in
        for worker in 0..<4 {
            group.addTask {
                for i in stride(from: worker, to: bodies.count, by: 4) {
                    let status = try await post(bodies[i], to: webhook, http: http)
                    guard status == 204 else { throw BenchError("the webhook answered \(status)") }
                }
            }
        }
        try await group.waitForAll()
    }
    let storeSeconds = Double(DispatchTime.now().uptimeNanoseconds - storeStart) / 1e9
    var delivered = 0
    for bulkId in Set(sent.map(\.bulkId)) {
        delivered += try await client.deliveryInfos(bulkId: bulkId).filter { $0.deliveryStatus == .deliveredToTerminal }.count
    }
    say("infobip:  \(fmt(Double(sent.count) / storeSeconds, 0)) webhook reports stored/s (\(sent.count) in \(bodies.count) calls of 100, "
        + "4 at once, in \(fmt(storeSeconds)) s; \(delivered) messages now delivered)")

    // A pushed report to 100 event-stream subscribers: 50 single-message bulks, handed over before the subscribers
    // connect, so the first event they see of each bulk is its report.
    var bulks: [(messageId: String, bulkId: String)] = []
    for i in 0..<50 {
        let answer = try await client.sendInvitation(SendInvitationBody(messageKey: messageKey, sender: "Herald", destinations: [
            .init(address: "3859\(String(format: "%08d", 10_500_000 + i))", messageId: "latency-\(i)"),
        ]))
        bulks.append(("latency-\(i)", answer.bulkId))
    }
    let handedBy = Date().addingTimeInterval(30)
    while await state.sentInOrder.count < total + bulks.count, Date() < handedBy { try await Task.sleep(nanoseconds: 20_000_000) }
    try await Task.sleep(nanoseconds: 500_000_000)
    let viewer = try await engine.createServerKey(role: .viewer, name: "bench-viewer").key
    let subscribers = 100
    let arrivals = try RawSubscribers(port: url.port ?? 0, key: viewer, count: subscribers)
    defer { arrivals.stop() }
    let connectDeadline = Date().addingTimeInterval(30)
    while arrivals.connected < subscribers, Date() < connectDeadline { try await Task.sleep(nanoseconds: 10_000_000) }
    var latencies: [Double] = []
    for bulk in bulks {
        let start = DispatchTime.now().uptimeNanoseconds
        arrivals.expect(bulk.bulkId, at: start)
        _ = try await post(reportsBody([bulk]), to: webhook, http: http)
        let deadline = Date().addingTimeInterval(5)
        while arrivals.count(bulk.bulkId) < subscribers, Date() < deadline { try await Task.sleep(nanoseconds: 1_000_000) }
        latencies += arrivals.latencies(bulk.bulkId)
    }
    latencies.sort()
    guard !latencies.isEmpty else {
        let infos = try await client.deliveryInfos(bulkId: bulks[0].bulkId)
        throw BenchError("no subscriber saw a pushed report (\(arrivals.connected) connected; the first bulk is \(infos.map(\.deliveryStatus)))")
    }
    say("infobip:  webhook report → \(subscribers) SSE subscribers: p50 \(fmt(percentile(latencies, 0.5))) ms, "
        + "p99 \(fmt(percentile(latencies, 0.99))) ms, max \(fmt(latencies.last ?? 0)) ms "
        + "(\(latencies.count) of \(bulks.count * subscribers) deliveries within 5 s)")
}

/// A webhook call's body as Infobip posts it: every message delivered to the handset, with its price.
private func reportsBody(_ messages: [(messageId: String, bulkId: String)]) -> Data {
    let results: [[String: Any]] = messages.map { message in
        [
            "bulkId": message.bulkId, "messageId": message.messageId, "to": "385900000000", "messageCount": 1,
            "sentAt": "2026-11-25T10:00:00.000+0000", "doneAt": "2026-11-25T10:00:02.000+0000",
            "price": ["pricePerMessage": 0.0075, "currency": "EUR"],
            "status": ["groupId": 3, "groupName": "DELIVERED", "id": 5, "name": "DELIVERED_TO_HANDSET", "description": "Message delivered to handset"],
            "error": ["groupId": 0, "groupName": "OK", "id": 0, "name": "NO_ERROR", "description": "No Error", "permanent": false],
        ]
    }
    return (try? JSONSerialization.data(withJSONObject: ["results": results])) ?? Data()
}

private func post(_ body: Data, to url: URL, http: HTTPClient) async throws -> Int {
    var request = HTTPClientRequest(url: url.absoluteString)
    request.method = .POST
    request.headers.add(name: "Content-Type", value: "application/json")
    request.body = .bytes(ByteBuffer(bytes: body))
    let response = try await http.execute(request, timeout: .seconds(30))
    _ = try await response.body.collect(upTo: 1 << 16)
    return Int(response.status.code)
}
