import Foundation
@testable import HeraldTUI
import HeraldCore
import Testing

@Suite struct SmallWidgetTests {
    @Test func tabsHighlightTheSelectedOneAndReportTheirRects() {
        var canvas = Canvas(size: Size(width: 30, height: 1))
        let frames = TabsView.render(into: &canvas, rect: canvas.bounds, titles: ["1 Contacts", "2 Share"], selected: 1)
        #expect(canvas.snapshot() == " 1 Contacts │ 2 Share")
        #expect(frames == [Rect(x: 0, y: 0, width: 12, height: 1), Rect(x: 13, y: 0, width: 9, height: 1)])
        #expect(canvas.cell(x: 14, y: 0)?.style.role == .tabActive)
        #expect(canvas.cell(x: 1, y: 0)?.style.role == .tabInactive)
    }

    @Test func statusBarDropsTheRightSideWhenSpaceIsShort() {
        var canvas = Canvas(size: Size(width: 20, height: 1))
        StatusBarView.render(into: &canvas, rect: canvas.bounds, left: [StatusSegment("? help")], right: [StatusSegment("12/100")])
        #expect(canvas.snapshot() == "? help        12/100")
        StatusBarView.render(into: &canvas, rect: canvas.bounds, left: [StatusSegment("space select  a all  ")], right: [StatusSegment("12/100")])
        #expect(canvas.snapshot() == "space select  a all")
    }

    @Test func toastsExpireWithInjectedTime() {
        let clock = ManualClock()
        var center = ToastCenter()
        center.post("Sent 12 invitations", now: clock.now(), seconds: 3)
        center.post("Carrier rejected 2", level: .error, now: clock.now(), seconds: 8)
        #expect(center.nextDeadline == clock.now().addingTimeInterval(3))
        clock.advance(by: 2.9)
        #expect(center.expire(now: clock.now()) == false)
        clock.advance(by: 0.2)
        #expect(center.expire(now: clock.now()) == true)
        #expect(center.toasts.map(\.message) == ["Carrier rejected 2"])
        var canvas = Canvas(size: Size(width: 30, height: 3))
        ToastView.render(into: &canvas, area: canvas.bounds, toasts: center.toasts)
        #expect(canvas.snapshot() == "\n\n         ✗ Carrier rejected 2")
        #expect(canvas.cell(x: 29, y: 2)?.style.role == .toastError)
    }

    @Test func aLongToastWrapsInsteadOfLosingItsEnd() {
        var canvas = Canvas(size: Size(width: 32, height: 6))
        let text = "nothing to send: every number is already invited or on its way"
        ToastView.render(into: &canvas, area: canvas.bounds, toasts: [Toast(text, level: .warning, expiresAt: Date())])
        let shown = canvas.snapshot().split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(shown.contains("on its way"))
        #expect(shown.replacingOccurrences(of: "  ", with: " ") == "! " + text)
        #expect(canvas.snapshot().split(separator: "\n").allSatisfy { TextWidth.of(String($0)) <= 32 })
    }

    @Test func modalIsCenteredWithTitleContentAndButtons() {
        var canvas = Canvas(size: Size(width: 30, height: 9))
        canvas.fill(canvas.bounds, with: ".")
        ModalView.render(into: &canvas, area: canvas.bounds, title: "Resend?", lines: ["2 failed to 李小龍"],
                         buttons: ["Yes", "No"], selectedButton: 0, minWidth: 10)
        #expect(canvas.snapshot() == """
        ..............................
        ..............................
        ....╭ Resend? ───────────╮....
        ....│ 2 failed to 李小龍 │....
        ....│                    │....
        ....│   [ Yes ] [ No ]   │....
        ....╰────────────────────╯....
        ..............................
        ..............................
        """)
        #expect(canvas.cell(x: 10, y: 5)?.style.role == .buttonFocused)
        #expect(canvas.cell(x: 18, y: 5)?.style.role == .button)
    }

    @Test func progressBarShowsEighthsAndColouredSegments() {
        var canvas = Canvas(size: Size(width: 10, height: 1))
        ProgressBarView.render(into: &canvas, rect: canvas.bounds, segments: [ProgressSegment(45, role: .statusDelivered)], total: 100)
        #expect(canvas.snapshot() == "████▌")
        ProgressBarView.render(into: &canvas, rect: canvas.bounds, segments: [
            ProgressSegment(5, role: .statusDelivered), ProgressSegment(3, role: .statusPending), ProgressSegment(2, role: .statusFailed),
        ])
        // Shapes differ as well as colours, so monochrome tells invited, pending and failed apart.
        #expect(canvas.snapshot() == "█████░░░▓▓")
        #expect(canvas.cell(x: 4, y: 0)?.style.role == .statusDelivered)
        #expect(canvas.cell(x: 5, y: 0)?.style.role == .statusPending)
        #expect(canvas.cell(x: 9, y: 0)?.style.role == .statusFailed)
        ProgressBarView.render(into: &canvas, rect: canvas.bounds, segments: [
            ProgressSegment(1, role: .statusDelivered), ProgressSegment(1, role: .statusFailed),
        ], total: 16)   // 1/16 of 80 eighths = 5 eighths each
        #expect(canvas.snapshot() == "▋▎")
        #expect(canvas.cell(x: 0, y: 0)?.style == Style(.statusDelivered, background: .foregroundOf(.statusFailed)))
        #expect(canvas.cell(x: 1, y: 0)?.style == Style(.statusFailed, background: .backgroundOf(.progressEmpty)))
    }
}
