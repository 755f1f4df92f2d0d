import Foundation
@testable import HeraldTUI
import HeraldCore
import Testing

@Suite struct AppLoopTests {
    func makeLoop(clock: ManualClock) throws -> (AppLoop<DemoScreen>, FakeTerminal, DemoScreen) {
        let terminal = FakeTerminal(size: Size(width: 60, height: 12))
        let screen = DemoScreen(rows: 1_000, clock: clock)
        let loop = AppLoop(terminal: terminal, screen: screen, mailbox: try Mailbox<DemoScreen.Event>(), clock: clock)
        return (loop, terminal, screen)
    }

    /// A loop over a `ReadingScreen`, its first frame drawn.
    func readingLoop() throws -> (AppLoop<ReadingScreen>, FakeTerminal, ManualClock) {
        let clock = ManualClock()
        let terminal = FakeTerminal(size: Size(width: 40, height: 6))
        let loop = AppLoop(terminal: terminal, screen: ReadingScreen(), mailbox: try Mailbox<ReadingScreen.Event>(), clock: clock)
        loop.renderIfDue()
        return (loop, terminal, clock)
    }

    @Test func idleLoopSleepsWithoutATimeoutAndDrawsNothing() throws {
        let clock = ManualClock()
        let (loop, terminal, _) = try makeLoop(clock: clock)
        #expect(loop.renderIfDue())
        #expect(loop.pollTimeout() == -1)
        loop.processPending()
        #expect(loop.renderIfDue() == false)
        #expect(terminal.frames.count == 1)
    }

    @Test func aPostFromAnotherThreadWakesTheLoop() async throws {
        let clock = ManualClock()
        let (loop, terminal, _) = try makeLoop(clock: clock)
        loop.renderIfDue()
        let mailbox = loop.mailbox
        let posted = Task.detached { mailbox.post(.toast("Delivered to Ada")) }
        loop.wait(timeoutMilliseconds: -1)          // returns only because the pipe byte arrived
        await posted.value
        loop.processPending()
        clock.advance(by: 1)
        #expect(loop.renderIfDue())
        #expect(terminal.screenText.contains("• Delivered to Ada"))
        #expect(loop.pollTimeout() == 3_000)         // the toast expires in 4 s, 1 s has passed
    }

    @Test func keysMoveTheListAndOnlyChangedCellsAreWritten() throws {
        let clock = ManualClock()
        let (loop, terminal, _) = try makeLoop(clock: clock)
        loop.renderIfDue()
        terminal.queue(.char("j"), .char("j"))
        loop.processPending()
        clock.advance(by: 1)
        loop.renderIfDue()
        #expect(terminal.frames.last?.cell(x: 1, y: 4)?.style.role == .selection)   // "Person 3" row
        #expect(terminal.frames.last?.cell(x: 1, y: 2)?.style.role == .text)
        #expect(terminal.lastWrittenCells < 60 * 12 / 3)
    }

    @Test func whatOtherThreadsPostIsDrawnAtMostSixtyTimesASecond() throws {
        let clock = ManualClock()
        let (loop, _, _) = try makeLoop(clock: clock)
        loop.renderIfDue()
        loop.mailbox.post(.progress(0.5))
        loop.processPending()
        #expect(loop.renderIfDue() == false)          // same instant: too soon
        #expect((1...17).contains(loop.pollTimeout()))
        clock.advance(by: 0.017)
        #expect(loop.renderIfDue())
    }

    @Test func aKeysFrameIsDrawnAtOnce() throws {
        let clock = ManualClock()
        let (loop, terminal, _) = try makeLoop(clock: clock)
        loop.renderIfDue()
        terminal.queue(.char("j"))
        loop.processPending()
        #expect(loop.pollTimeout() == 0)
        #expect(loop.renderIfDue())                   // the same instant as the last frame
        #expect(terminal.frames.last?.cell(x: 1, y: 3)?.style.role == .selection)
    }

    /// A key that starts a read is drawn once, with the read's answer, the moment it is in; a read that takes
    /// longer than the hold shows the key first.
    @Test func aKeysFrameWaitsBrieflyForTheReadItStarted() throws {
        let (loop, terminal, clock) = try readingLoop()

        terminal.queue(.char("a"))
        loop.processPending()
        #expect(loop.renderIfDue() == false)          // holding for the answer
        #expect((1...8).contains(loop.pollTimeout()))
        clock.advance(by: 0.003)
        loop.mailbox.post(.answered(nil))
        loop.processPending()
        #expect(loop.renderIfDue())                   // 3 ms after the last frame, under the frame cap: at once
        #expect(terminal.screenText.contains("a → 1 found"))
        #expect(terminal.frames.count == 2)            // the first frame and the answered one: nothing in between

        terminal.queue(.char("b"))
        loop.processPending()
        clock.advance(by: AppLoop<ReadingScreen>.keyHold)
        #expect(loop.renderIfDue())                   // too slow: the key shows meanwhile
        #expect(terminal.screenText.contains("ab → searching"))
        clock.advance(by: 0.002)
        loop.mailbox.post(.answered(nil))
        loop.processPending()
        #expect(loop.renderIfDue())                   // and the answer the moment it is in
        #expect(terminal.screenText.contains("ab → 2 found"))
    }

    /// An earlier key's read that never ends does not keep a later key from being answered in one frame.
    @Test func aReadThatNeverEndsHoldsUpNoLaterKey() throws {
        let (loop, terminal, clock) = try readingLoop()
        terminal.queue(.char("a"))                    // its read (1) never answers
        loop.processPending()
        clock.advance(by: AppLoop<ReadingScreen>.keyHold)
        #expect(loop.renderIfDue())
        #expect(terminal.screenText.contains("a → searching"))
        clock.advance(by: 1)
        terminal.queue(.char("b"))
        loop.processPending()
        #expect(loop.renderIfDue() == false)          // held for its own read (2)
        clock.advance(by: 0.002)
        loop.mailbox.post(.answered(2))
        loop.processPending()
        #expect(loop.renderIfDue())
        #expect(terminal.screenText.contains("ab → 2 found"))
        #expect(terminal.frames.count == 3)
    }

    /// A key whose frame asks for rows it lacks: the rows are drawn the moment they are read, not a frame later.
    @Test func rowsAKeysFrameAskedForAreDrawnAtOnce() throws {
        let (loop, terminal, clock) = try readingLoop()
        terminal.queue(.char("j"))
        loop.processPending()
        #expect(loop.renderIfDue())
        #expect(terminal.screenText.contains("row 1: reading"))
        clock.advance(by: 0.001)
        loop.mailbox.post(.answered(nil))
        loop.processPending()
        #expect(loop.pollTimeout() == 0)
        #expect(loop.renderIfDue())                   // 1 ms after the last frame
        #expect(terminal.screenText.contains("row 1: read"))
    }


    @Test func expiredToastDisappearsOnTheDeadline() throws {
        let clock = ManualClock()
        let (loop, terminal, _) = try makeLoop(clock: clock)
        terminal.queue(.enter)
        loop.processPending()
        loop.renderIfDue()
        #expect(terminal.screenText.contains("Opened Person 1"))
        clock.advance(by: 4)
        loop.processPending()
        clock.advance(by: 1)
        loop.renderIfDue()
        #expect(!terminal.screenText.contains("Opened Person 1"))
        #expect(loop.pollTimeout() == -1)
    }

    @Test func resizeRedrawsAtTheNewSize() throws {
        let clock = ManualClock()
        let (loop, terminal, _) = try makeLoop(clock: clock)
        loop.renderIfDue()
        terminal.resize(to: Size(width: 40, height: 8))
        terminal.queue(.resize)
        _ = terminal.refreshSize()
        loop.processPending()
        clock.advance(by: 1)
        #expect(loop.renderIfDue())
        #expect(terminal.frames.last?.size == Size(width: 40, height: 8))
    }

    @Test func quitKeyEndsTheLoop() throws {
        let (loop, terminal, screen) = try makeLoop(clock: ManualClock())
        terminal.queue(.char("q"))
        loop.processPending()
        #expect(screen.wantsToQuit)
    }
}

/// A screen whose keys start a read (as a search does), or whose frames do (rows scrolled into view), and
/// whose answers arrive through the mailbox: `answered(id)` ends the work `id`, `answered(nil)` all of it.
final class ReadingScreen: Screen {
    enum Event: Sendable { case answered(Int?) }
    private var query = ""
    private var answer: String?
    private var lastWork = 0
    private var pending: Set<Int> = []
    private var searchWork: Int?
    private var cursor = 0
    private var readRow = 0
    private var rowWork: Int?
    var wantsToQuit: Bool { false }

    private func start() -> Int {
        lastWork += 1
        pending.insert(lastWork)
        return lastWork
    }

    func render(into canvas: inout Canvas, size: Size) {
        if cursor > readRow, rowWork == nil { rowWork = start() }   // the row under the cursor is read when first drawn
        canvas.put("\(query) → \(answer ?? "searching")", x: 0, y: 0, style: Style(.text))
        canvas.put("row \(cursor): \(cursor == readRow ? "read" : "reading")", x: 0, y: 1, style: Style(.text))
    }

    func handle(key: Key) -> Bool {
        if key == .char("j") { cursor += 1; return true }
        guard case .char(let c) = key else { return false }
        query.append(c)
        answer = nil
        searchWork = start()
        return true
    }

    func handle(event: Event) -> Bool {
        guard case .answered(let id) = event else { return false }
        for work in id.map({ [$0] }) ?? Array(pending) {
            pending.remove(work)
            if work == searchWork { answer = "\(query.count) found"; searchWork = nil }
            if work == rowWork { readRow = cursor; rowWork = nil }
        }
        return true
    }

    func tick(now: Date) -> Bool { false }
    func nextDeadline() -> Date? { nil }
    var workMark: Int { lastWork }
    func awaitsWork(startedSince mark: Int) -> Bool { pending.contains { $0 > mark } }
}
