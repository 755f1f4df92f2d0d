import Foundation
import HeraldTestKit
import Testing
@testable import HeraldServices

@Suite struct ClipboardTests {
    @Test func osc52BytesAreExact() throws {
        let bytes = try Clipboard.osc52Bytes(for: "hi ž")
        // base64("hi ž") = "aGkgxb4="
        #expect(bytes == [0x1B] + Array("]52;c;aGkgxb4=".utf8) + [0x07])
    }

    @Test func insideTmuxTheTextGoesToTmuxsBufferAndPlainOSC52() async throws {
        let dir = try TempDir()
        let out = dir.path("buffer.txt"), args = dir.path("args.txt")
        try dir.script("tmux", "echo \"$@\" > '\(args)'; cat > '\(out)'")
        let clipboard = Clipboard(method: .automatic(configured: nil),
                                  environment: ["PATH": dir.url.path + ":/usr/bin:/bin", "TMUX": "/tmp/tmux-1000/default,123,0"])
        let outcome = try await clipboard.copy("x")
        #expect(outcome == .writeToTerminal([0x1B] + Array("]52;c;eA==".utf8) + [0x07], alsoVia: "tmux's buffer"))
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "x")
        #expect(try String(contentsOfFile: args, encoding: .utf8) == "load-buffer -w -\n")
    }

    @Test func automaticPrefersTheConfiguredProgramThenTheDesktopsThenOSC52() async throws {
        let dir = try TempDir()
        let configuredOut = dir.path("configured.txt"), wlOut = dir.path("wl.txt")
        try dir.script("my-clip", "cat > '\(configuredOut)'")
        try dir.script("wl-copy", "cat > '\(wlOut)'")
        let path = dir.url.path + ":/usr/bin:/bin"
        let configured = Clipboard(method: .automatic(configured: ExternalCommand(program: "my-clip")),
                                   environment: ["PATH": path, "WAYLAND_DISPLAY": "wayland-0"])
        #expect(try await configured.copy("a") == .copied(via: "my-clip"))
        #expect(try String(contentsOfFile: configuredOut, encoding: .utf8) == "a")
        let wayland = Clipboard(method: .automatic(configured: nil), environment: ["PATH": path, "WAYLAND_DISPLAY": "wayland-0"])
        #expect(try await wayland.copy("b") == .copied(via: "wl-copy"))
        #expect(try String(contentsOfFile: wlOut, encoding: .utf8) == "b")
        let bare = Clipboard(method: .automatic(configured: nil), environment: ["PATH": dir.url.path])
        #expect(try await bare.copy("x") == .writeToTerminal([0x1B] + Array("]52;c;eA==".utf8) + [0x07]))
    }

    @Test func textTooLargeForTheTerminalIsRefused() {
        let big = String(repeating: "a", count: 60_000)
        #expect(throws: ClipboardError.self) { try Clipboard.osc52Bytes(for: big) }
    }

    @Test func clipboardCommandReceivesTheTextOnStdin() async throws {
        let dir = try TempDir()
        let out = dir.path("clip.txt")
        try dir.script("wl-copy", "cat > '\(out)'")
        let clipboard = Clipboard(method: .command(try ExternalCommand(parsing: "wl-copy --type text/plain")),
                                  environment: ["PATH": dir.url.path + ":/usr/bin:/bin"])
        #expect(clipboard.availability().isAvailable)
        let outcome = try await clipboard.copy("https://hrld.example/i/42 — Žužić")
        #expect(outcome == .copied(via: "wl-copy"))
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
