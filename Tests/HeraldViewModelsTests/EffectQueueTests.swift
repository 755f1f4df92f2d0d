import Foundation
import HeraldTestKit
import Testing
@testable import HeraldViewModels

/// Effects hand their typed result back to the UI side; a newer one under the same key supersedes the one in flight.
@Suite struct EffectQueueTests {
    /// Work that waits until the test lets it go.
    actor Gate {
        private var waiting: [CheckedContinuation<Void, Never>] = []
        private var open = false
        func wait() async { if !open { await withCheckedContinuation { waiting.append($0) } } }
        func release() { open = true; waiting.forEach { $0.resume() }; waiting = [] }
    }

    /// What the older work saw when it was let go: whether its task had been cancelled.
    actor Seen {
        private var value: Bool?
        private var waiting: CheckedContinuation<Bool, Never>?
        func record(_ cancelled: Bool) { value = cancelled; waiting?.resume(returning: cancelled); waiting = nil }
        func cancelled() async -> Bool {
            if let value { return value }
            return await withCheckedContinuation { waiting = $0 }
        }
    }

    @Test func aNewerReadUnderTheSameKeyCancelsTheOlderWhoseAnswerNeverArrives() async throws {
        let (stream, continuation) = AsyncStream<EffectCompletion>.makeStream()
        let queue = EffectQueue { continuation.yield($0) }
        var arrivals = stream.makeAsyncIterator()
        let gate = Gate(), seen = Seen()
        var answers: [String] = []
        queue.perform({ () async -> String in
            await gate.wait()
            await seen.record(Task.isCancelled)
            return "older"
        }, supersedes: "page") { answers.append((try? $0.get()) ?? "failed") }
        #expect(queue.inFlight == 1)
        queue.perform({ "newer" }, supersedes: "page") { answers.append((try? $0.get()) ?? "failed") }
        #expect(queue.inFlight == 1)                          // the older one no longer counts
        let newer = try #require(await arrivals.next())
        #expect(queue.complete(newer))
        await gate.release()
        #expect(await seen.cancelled())                       // its task was cancelled (a network read stops with it)
        let older = try #require(await arrivals.next())
        #expect(!queue.complete(older))                       // and its answer is dropped, not handed back
        #expect(answers == ["newer"] && queue.inFlight == 0)
    }

    @Test func effectsUnderDifferentKeysOrNoneAllAnswerWithTheirOwnTypes() async {
        let pump = EffectPump()
        var count: Int?
        var name: String?
        var failure: String?
        pump.queue.perform({ 42 }, supersedes: "a") { count = try? $0.get() }
        pump.queue.perform({ "Ana" }, supersedes: "b") { name = try? $0.get() }
        pump.queue.perform({ () throws -> Int in throw CocoaError(.fileNoSuchFile) }) {
            if case .failure(let error) = $0 { failure = "\(error)" }
        }
        await pump.settle()
        #expect(count == 42 && name == "Ana" && failure != nil)
    }
}
