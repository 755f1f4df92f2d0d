import Foundation
import HeraldAPI
import HeraldCore
import HeraldEngine

/// `herald-bench conversations`: 10,000 conversations with 100,000 replies (and invitations sent to a fifth of the
/// numbers) in a real engine SQLite file, kept through `storeReplies` in batches of 1,000, a third of the numbers
/// marked seen. Then, through the engine's API (what a route answers) and through the wire (`handle`, JSON included),
/// the list's first page (newest first, unread counts, the unread total) and a thread of 1,000 messages (900 replies,
/// 100 invitations). Targets: the list ≤ 50 ms, the thread ≤ 20 ms.
func conversationsBench(_ o: BenchOptions, dir: URL) async throws {
    let numbers = 10_000, replies = 100_000
    let clock = ManualClock(Date().addingTimeInterval(-40 * 86_400))
    let file = dir.appendingPathComponent("conversations").appendingPathComponent("engine.sqlite")
    var config = EngineConfig()
    config.collectReportsOnRead = false
    let engine = try PlatformEngine.open(at: file, clock: clock, config: config)
    let app = try await engine.bootstrapSandbox()
    let number = { (i: Int) in "3859813\(String(format: "%05d", i))" }
    let long = number(0)

    func send(_ destinations: [String], id: String) async throws {
        let body = SendInvitationBody(messageKey: app.messageKey, sender: "385911000000", destinations: destinations.enumerated().map {
            SendInvitationBody.Destination(address: $0.element, messageId: "\(id)-\($0.offset)")
        })
        let endpoint = SendInvitation(secret: app.secret, body: body)
        _ = try endpoint.decode(await engine.handle(try endpoint.request()))
    }

    // Invitations first: a fifth of the numbers, in bulks of 1,000.
    var sent = 0
    let sendTime = try await asyncSeconds {
        for start in stride(from: 1, to: numbers, by: 5_000) {
            let batch = Array(stride(from: start, to: min(start + 5_000, numbers), by: 5)).map(number)
            for (i, chunk) in stride(from: 0, to: batch.count, by: 1_000).map({ batch[$0..<min($0 + 1_000, batch.count)] }).enumerated() {
                try await send(Array(chunk), id: "inv-\(start)-\(i)")
                sent += chunk.count
            }
        }
    }
    // Replies over the next 30 days, newest last; the long thread's 900 replies between 100 invitations to it.
    var stored = 0
    let others = replies - 900
    let step = 30.0 * 86_400 / Double(others)
    let start = clock.now().addingTimeInterval(60)
    var batch: [CarrierReply] = []
    func flush() async throws {
        stored += try await engine.storeReplies(batch, applicationKey: app.applicationKey).count
        batch.removeAll(keepingCapacity: true)
    }
    let replyTime = try await asyncSeconds {
        for i in 0..<others {
            let from = number(1 + (i * 7_919) % (numbers - 1))
            batch.append(CarrierReply(messageId: "in-\(i)", from: from, to: "385911000000", text: benchReplyText(i),
                                      receivedAt: start.addingTimeInterval(Double(i) * step), price: 0.0, currency: "EUR"))
            if batch.count == 1_000 { try await flush() }
        }
        try await flush()
        for round in 0..<100 {
            clock.set(start.addingTimeInterval(Double(round) * 25_000))
            try await send([long], id: "long-\(round)")
            sent += 1
            for k in 0..<9 {
                batch.append(CarrierReply(messageId: "long-\(round)-\(k)", from: long, to: nil, text: benchReplyText(round * 9 + k),
                                          receivedAt: clock.now().addingTimeInterval(Double(k + 1) * 60)))
            }
            try await flush()
        }
    }
    guard stored == replies else { throw BenchError("kept \(stored) replies, not \(replies)") }
    clock.set(start.addingTimeInterval(31 * 86_400))
    let seenTime = try await asyncSeconds {
        for i in stride(from: 3, to: numbers, by: 3) { _ = try await engine.markSeen(applicationKey: app.applicationKey, number: number(i)) }
    }
    let size = Double((try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0)
    say("conversations: \(numbers) numbers, \(stored) replies kept in \(fmt(replyTime)) s (\(fmt(Double(stored) / replyTime, 0)) replies/s, "
        + "batches of 1,000 through storeReplies), \(sent) invitations sent in \(fmt(sendTime)) s, a third marked seen in \(fmt(seenTime)) s; "
        + "engine file \(fmt(size / 1e6, 1)) MB")

    let rounds = max(50, o.rounds)
    let key = app.applicationKey
    var list = ConversationList(conversations: [], unreadTotal: 0, hasMore: false)
    var thread = ConversationThread(number: long, entries: [], unread: 0, hasMore: false)
    var times: [String: [Double]] = [:]
    for _ in 0..<rounds {
        times["list", default: []].append(try await asyncSeconds {
            list = try await engine.conversations(applicationKey: key, filter: ConversationFilter(limit: 200))
        } * 1000)
        times["unread", default: []].append(try await asyncSeconds {
            _ = try await engine.conversations(applicationKey: key, filter: ConversationFilter(unreadOnly: true, limit: 200))
        } * 1000)
        let before = WireTime.date(list.conversations.last?.lastAt ?? "")
        times["page", default: []].append(try await asyncSeconds {
            _ = try await engine.conversations(applicationKey: key, filter: ConversationFilter(before: before, limit: 200))
        } * 1000)
        times["thread", default: []].append(try await asyncSeconds {
            thread = try await engine.thread(applicationKey: key, number: long, limit: 1000)
        } * 1000)
        let listCall = ListConversations(secret: app.secret, filter: ConversationFilter(limit: 200))
        times["wire list", default: []].append(try await asyncSeconds {
            _ = try listCall.decode(await engine.handle(try listCall.request()))
        } * 1000)
        let threadCall = GetConversation(secret: app.secret, number: long, limit: 1000)
        times["wire thread", default: []].append(try await asyncSeconds {
            _ = try threadCall.decode(await engine.handle(try threadCall.request()))
        } * 1000)
    }
    guard list.conversations.count == 200, thread.entries.count == 1000,
          thread.entries.filter({ $0.kind == .sent }).count == 100 else {
        throw BenchError("the list holds \(list.conversations.count) and the thread \(thread.entries.count) entries")
    }
    func line(_ name: String) -> String {
        let t = (times[name] ?? []).sorted()
        return "p50 \(fmt(percentile(t, 0.5))) ms, p95 \(fmt(percentile(t, 0.95))) ms"
    }
    say("conversations: list, first 200 of \(numbers) newest first with unread counts (unread total \(list.unreadTotal)), "
        + "engine API: \(line("list")) (target ≤ 50 ms)")
    say("conversations: list, unread only: \(line("unread")); the next page (before): \(line("page"))")
    say("conversations: thread of 1,000 messages (900 replies, 100 invitations), engine API: \(line("thread")) (target ≤ 20 ms)")
    say("conversations: through the wire (handle + JSON, as a terminal's embedded platform asks): list \(line("wire list")); "
        + "thread \(line("wire thread"))")
    await engine.store.close()
}

/// What people answer with, numbered so no two replies are alike.
private func benchReplyText(_ i: Int) -> String {
    let texts = ["yes, see you there", "who is this?", "wrong number", "thanks! what time?", "can I bring a friend?", "ok",
                 "I'll be late, sorry"]
    return texts[i % texts.count] + " #\(i)"
}
