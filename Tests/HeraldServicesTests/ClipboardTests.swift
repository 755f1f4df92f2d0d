import Foundation
import Testing
@testable import HeraldServices

@Suite struct ClipboardTests {
    @Test func osc52BytesAreExact() throws {
        let bytes = try Clipboard.osc52Bytes(for: "hi ž", insideTmux: false)
        // base64("hi ž") = "aGkgxb4="
        #expect(bytes == [0x1B] + Array("]52;c;aGkgxb4=".utf8) + [0x07])
    }

    @Test func insideTmuxTheSequenceIsWrappedForPassthrough() throws {
        let bytes = try Clipboard.osc52Bytes(for: "hi ž", insideTmux: true)
        #expect(bytes == [0x1B] + Array("Ptmux;".utf8) + [0x1B, 0x1B] + Array("]52;c;aGkgxb4=".utf8) + [0x07, 0x1B, 0x5C])
    }

    @Test func copyChoosesTmuxWrappingFromTheEnvironment() async throws {
        let plain = try await Clipboard(method: .osc52, environment: [:]).copy("x")
        let tmux = try await Clipboard(method: .osc52, environment: ["TMUX": "/tmp/tmux-1000/default,123,0"]).copy("x")
        #expect(plain == .writeToTerminal([0x1B] + Array("]52;c;eA==".utf8) + [0x07]))
        guard case .writeToTerminal(let wrapped) = tmux else { Issue.record("expected bytes"); return }
        #expect(wrapped.starts(with: [0x1B] + Array("Ptmux;".utf8)))
        #expect(wrapped.suffix(2) == [0x1B, 0x5C])
    }

    @Test func textTooLargeForTheTerminalIsRefused() {
        let big = String(repeating: "a", count: 60_000)
        #expect(throws: ClipboardError.self) { try Clipboard.osc52Bytes(for: big, insideTmux: false) }
    }

    @Test func clipboardCommandReceivesTheTextOnStdin() async throws {
        let dir = try TempDir()
        let out = dir.path("clip.txt")
        try dir.script("wl-copy", "cat > '\(out)'")
        let clipboard = Clipboard(method: .command(try ExternalCommand(parsing: "wl-copy --type text/plain")),
                                  environment: ["PATH": dir.url.path + ":/usr/bin:/bin"])
        #expect(clipboard.availability().isAvailable)
        let outcome = try await clipboard.copy("https://hrld.example/i/42 — Žužić")
        #expect(outcome == .copied)
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "https://hrld.example/i/42 — Žužić")
    }

    @Test func missingOrFailingClipboardCommandGivesAReason() async throws {
        let dir = try TempDir()
        let missing = Clipboard(method: .command(ExternalCommand(program: "xclip")), environment: ["PATH": dir.url.path])
        #expect(!missing.availability().isAvailable)
        await #expect(throws: ClipboardError.commandFailed("xclip was not found on PATH; install it or configure the full path of the program")) {
            try await missing.copy("x")
        }
        let failing = try dir.script("xsel", "echo \"Can't open display\" >&2\nexit 1")
        let broken = Clipboard(method: .command(ExternalCommand(program: failing)), environment: ["PATH": "/usr/bin:/bin"])
        await #expect(throws: ClipboardError.commandFailed("\(failing) failed with exit status 1: Can't open display")) {
            try await broken.copy("x")
        }
    }
}
