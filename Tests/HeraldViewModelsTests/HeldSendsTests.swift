import Foundation
import HeraldCore
import HeraldServices
import HeraldTestKit
import Testing
@testable import HeraldViewModels

/// The undo window's countdown: a held send this terminal made counts down by the second until it leaves, and the
/// take-back cancels every bulk still held and says what it came to.
@Suite("Held sends countdown")
struct HeldSendsCountdownTests {
    nonisolated final class Cancels: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String] = []
        func add(_ bulk: String) { lock.withLock { list.append(bulk) } }
        var bulks: [String] { lock.withLock { list } }
    }

    @Test func aHeldSendCountsDownAndATakeBackCancelsEveryHeldBulk() async throws {
        let clock = ManualClock()
        let effects = EffectPump()
        let cancels = Cancels()
        var toasts: [String] = []
        let held = HeldSends(clock: clock, effects: effects.queue, cancel: { bulk in
            cancels.add(bulk)
            throw HeldBulkError.platform("bulk \(bulk) left before the take-back reached it")
        }, onToast: { _, text in toasts.append(text) })
        #expect(held.notice(key: "ctrl-x") == nil && held.nextDeadline() == nil)
        // A send that left at once, and one scheduled days ahead, are not counted down.
        held.fold(BulkSent(bulkId: "now", accepted: 2, refused: 0, at: clock.now()))
        held.fold(BulkSent(bulkId: "later", accepted: 2, refused: 0, at: clock.now(), sendAt: clock.now().addingTimeInterval(86_400)))
        #expect(held.notice(key: "ctrl-x") == nil)

        held.fold(BulkSent(bulkId: "a", accepted: 2, refused: 0, at: clock.now(), sendAt: clock.now().addingTimeInterval(10)))
        held.fold(BulkSent(bulkId: "b", accepted: 1, refused: 0, at: clock.now(), sendAt: clock.now().addingTimeInterval(10)))
        #expect(held.notice(key: "ctrl-x") == "3 invitations leave in 10 s — ctrl-x takes them back")
        clock.advance(by: 2.5)
        #expect(held.nextDeadline() == clock.now().addingTimeInterval(0.5), "the next whole second of the countdown")
        #expect(held.notice(key: "ctrl-x") == "3 invitations leave in 8 s — ctrl-x takes them back")

        #expect(held.takeBack())
        #expect(held.notice(key: "ctrl-x") == "taking back 3 invitations…")
        await effects.settle()
        #expect(Set(cancels.bulks) == ["a", "b"])
        #expect(toasts.count == 2 && toasts.allSatisfy { $0.contains("could not take it back: bulk") })
        #expect(held.notice(key: "ctrl-x") == nil, "done with, whatever the answer")
        #expect(!held.takeBack())
    }

    @Test func aHeldSendGoesFromTheCountdownWhenItLeaves() {
        let clock = ManualClock()
        let held = HeldSends(clock: clock, effects: EffectPump().queue, cancel: { _ in throw CancellationError() }, onToast: { _, _ in })
        held.fold(BulkSent(bulkId: "a", accepted: 1, refused: 0, at: clock.now(), sendAt: clock.now().addingTimeInterval(3)))
        #expect(held.notice(key: "ctrl-x") == "1 invitation leaves in 3 s — ctrl-x takes it back")
        clock.advance(by: 3)
        #expect(held.tick(now: clock.now()))
        #expect(held.notice(key: "ctrl-x") == nil && held.nextDeadline() == nil)
        #expect(!held.tick(now: clock.now()))
    }
}
