import Foundation
import HeraldTestKit
import HeraldCore
import HeraldServices
import HeraldTUI
import HeraldViewModels
import Testing

@Suite struct SharePaneTests {
    func pane(_ ws: WorkspaceHarness, _ effects: EffectPump, terminal: @escaping ([UInt8]) -> Void = { _ in }) async -> SharePane {
        let model = ShareViewModel(share: ws.workspace.share, composer: nil, emailSender: nil, mailProgram: nil,
                                   context: effects.context(terminal: TerminalHandOver(write: terminal, suspend: nil)),
                                   settings: ShareSettings(referrer: "Ana", sender: "Herald"))
        let pane = SharePane(model: model)
        pane.didAppear()
        await effects.settle()
        return pane
    }

    @Test func channelsShowAvailabilityAndTheLinkWithItsClicks() async throws {
        let ws = try await WorkspaceHarness.screens()
        let effects = EffectPump()
        let pane = await pane(ws, effects)
        let url = try #require(pane.model.link?.url)
        #expect(pane.handle(action: .moveDown))                   // onto "Email invite"
        var canvas = Canvas(size: Size(width: 80, height: 21))
        pane.layout(in: canvas.bounds)
        pane.render(into: &canvas, in: canvas.bounds, theme: plainTheme)
        let rows = canvas.rows
        #expect(rows[1].hasPrefix("│ ✓ SMS invite"))
        #expect(rows[2].hasPrefix("│ ✗ Email invite"))
        #expect(rows[3].hasPrefix("│ ✓ Referral link"))
        #expect(rows[8].hasPrefix("│ ✓ Share on Telegram"))
        #expect(canvas.find("no email sender: set") != nil)
        #expect(canvas.find(url) != nil)
        #expect(canvas.find("0 clicks") != nil)
        #expect(canvas.find("X         https://twitter.com/intent/tweet?") != nil)
    }

    @Test func theQRCodeIsDrawnWithHalfBlocks() async throws {
        let ws = try await WorkspaceHarness.screens()
        let effects = EffectPump()
        let pane = await pane(ws, effects)
        #expect(pane.handle(action: .shareQR))
        var canvas = Canvas(size: Size(width: 80, height: 24))
        pane.layout(in: canvas.bounds)
        pane.render(into: &canvas, in: canvas.bounds, theme: plainTheme)
        let qr = pane.model.qrLines()
        #expect(qr.count >= 15)
        // Every line of the code is on screen, one under the other, in the same column.
        let first = try #require(canvas.find(qr[1]))
        for (i, line) in qr.enumerated() where line.contains(where: { $0 != " " }) {
            let row = canvas.rows[first.y - 1 + i]
            #expect(row.contains(line.trimmingCharacters(in: .whitespaces)), "QR line \(i) missing")
        }
        #expect(canvas.snapshot().contains("▀"))
        #expect(canvas.snapshot().contains("▄"))
        #expect(pane.handle(action: .back))
        #expect(!pane.model.showsQR)
    }

    @Test func copyWritesTheOSC52EscapeThroughTheTerminalHook() async throws {
        let ws = try await WorkspaceHarness.screens()
        let effects = EffectPump()
        nonisolated(unsafe) var written: [UInt8] = []
        let pane = await pane(ws, effects) { written += $0 }
        #expect(pane.handle(action: .copy))
        await effects.settle()
        let url = try #require(pane.model.link?.url)
        #expect(written == (try Clipboard.osc52Bytes(for: url)))
    }
}
