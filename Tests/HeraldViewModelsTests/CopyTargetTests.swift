import Foundation
import HeraldTestKit
import HeraldServices
import Testing
@testable import HeraldViewModels

/// The copy key of every pane: what it copies, which way the text goes, and the toast that says so.
@Suite struct CopyTargetTests {
    @Test func theFirstLinkOfAMessageIsFoundWithoutTrailingPunctuation() {
        #expect(CopyTarget.firstLink(in: "Join us at https://example.com/r/abc123. See you!") == "https://example.com/r/abc123")
        #expect(CopyTarget.firstLink(in: "(http://a.example/x?y=1), then https://b.example") == "http://a.example/x?y=1")
        #expect(CopyTarget.firstLink(in: "no link here") == nil)
    }

    /// A copier on `clipboard`, with what it wrote to the terminal and the toasts it posted.
    private func copier(_ clipboard: Clipboard, _ pump: EffectPump) -> (Copier, ToastLog, () -> [[UInt8]]) {
        let toasts = ToastLog()
        nonisolated(unsafe) var written: [[UInt8]] = []
        let copier = Copier(clipboard: clipboard, effects: pump.queue, onToast: toasts.sink(), onTerminalBytes: { written.append($0); return true })
        return (copier, toasts, { written })
    }

    @Test func withNoProgramTheTextGoesThroughTheTerminalAndTheToastSaysSoAndShowsIt() async throws {
        let pump = EffectPump()
        let (copier, toasts, written) = copier(Clipboard(method: .automatic(configured: nil), environment: ["PATH": "/nonexistent"]), pump)
        copier.copy(CopyTarget(text: "+385911234567", what: "number"))
        await pump.settle()
        #expect(written() == [try Clipboard.osc52Bytes(for: "+385911234567")])
        #expect(toasts.entries.last?.level == .success)
        #expect(toasts.texts.last == "copied the number through the terminal (OSC 52; a terminal that ignores it pastes nothing: "
                + "set [share] clipboard_command): +385911234567")
    }

    @Test func withNoTerminalToWriteToTheCopySaysItCouldNotAndShowsTheText() async throws {
        let pump = EffectPump()
        let toasts = ToastLog()
        let copier = Copier(clipboard: Clipboard(method: .osc52, environment: [:]), effects: pump.queue, onToast: toasts.sink(),
                            onTerminalBytes: { _ in false })
        copier.copy(CopyTarget(text: "+385911234567", what: "number"))
        await pump.settle()
        #expect(toasts.entries.map(\.level) == [.warning], "one toast, not a warning and then a success")
        #expect(toasts.texts.last == "could not copy: no terminal to copy through; set [share] clipboard_command; the number: +385911234567")
    }

    @Test func theConfiguredProgramTakesTheTextAndNothingIsWrittenToTheTerminal() async throws {
        let tempDir = try TempDir("copier")
        let dir = tempDir.url
        let out = dir.appendingPathComponent("clip.txt").path
        let pump = EffectPump()
        let program = ExternalCommand(program: "/bin/sh", arguments: ["-c", "cat > '\(out)'"])
        let (copier, toasts, written) = copier(Clipboard(method: .automatic(configured: program), environment: ["PATH": "/usr/bin:/bin"]), pump)
        copier.copy(CopyTarget(text: "bulk-1234 Žužić", what: "bulk id"))
        await pump.settle()
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "bulk-1234 Žužić")
        #expect(written().isEmpty)
        #expect(toasts.texts.last == "copied the bulk id with /bin/sh: bulk-1234 Žužić")
    }

    @Test func aProgramThatFailsSaysWhyAndShowsTheTextNothingToCopySaysSo() async throws {
        let pump = EffectPump()
        let failing = ExternalCommand(program: "/bin/sh", arguments: ["-c", "echo no display >&2; exit 3"])
        let (copier, toasts, written) = copier(Clipboard(method: .command(failing), environment: ["PATH": "/usr/bin:/bin"]), pump)
        copier.copy(CopyTarget(text: "https://hrld.example/i/42", what: "link"))
        await pump.settle()
        #expect(written().isEmpty)
        #expect(toasts.entries.last?.level == .error)
        let toast = try #require(toasts.texts.last)
        #expect(toast.hasPrefix("could not copy:") && toast.contains("no display") && toast.hasSuffix("the link: https://hrld.example/i/42"))
        copier.copy(nil)
        #expect(toasts.texts.last == "nothing to copy here")
        let huge = Clipboard(method: .osc52, environment: [:])
        let (big, bigToasts, bigWritten) = self.copier(huge, pump)
        big.copy(CopyTarget(text: String(repeating: "x", count: 100_000), what: "text"))
        await pump.settle()
        #expect(bigWritten().isEmpty && bigToasts.entries.last?.level == .error)
    }
}
