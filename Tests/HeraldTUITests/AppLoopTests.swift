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

    @Test func framesAreLimitedToSixtyASecond() throws {
        let clock = ManualClock()
        let (loop, terminal, _) = try makeLoop(clock: clock)
        loop.renderIfDue()
        terminal.queue(.char("j"))
        loop.processPending()
        #expect(loop.renderIfDue() == false)          // same instant: too soon
        #expect((1...17).contains(loop.pollTimeout()))
        clock.advance(by: 0.017)
        #expect(loop.renderIfDue())
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
