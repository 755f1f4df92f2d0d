import Foundation
import Testing

/// `make install` as a packager runs it (DESTDIR, PREFIX), with the binary the tests built, and `make uninstall`
/// after it: everything lands where Debian's tools look (the binary, man pages of both sections, completions for
/// bash, zsh and fish, the themes, the systemd unit pointing at the installed binary), and uninstall removes exactly
/// that, leaving a file of the user's alone.
@Suite struct MakeInstallTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func make(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/make")
        process.arguments = ["-C", root.path, "--no-print-directory"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func installPutsEverythingWhereItBelongsAndUninstallRemovesExactlyThat() throws {
        let box = try CLISandbox()
        let dest = box.root.appendingPathComponent("dest")
        let prefix = "/opt/herald"
        let base = dest.appendingPathComponent("opt/herald")
        let install = try Self.make(["install-files", "DESTDIR=\(dest.path)", "PREFIX=\(prefix)", "BINARY=\(try HeraldBinary.url().path)"])
        #expect(install.status == 0, "\(install.output)")
        for path in ["bin/herald", "share/man/man1/herald.1", "share/man/man1/herald.config.check.1", "share/man/man5/herald-config.5",
                     "share/bash-completion/completions/herald", "share/zsh/site-functions/_herald",
                     "share/fish/vendor_completions.d/herald.fish", "share/herald/themes/default.toml",
                     "lib/systemd/system/herald.service", "share/herald/installed-files"] {
            #expect(FileManager.default.fileExists(atPath: base.appendingPathComponent(path).path), "\(path) was not installed")
        }
        let unit = try String(contentsOf: base.appendingPathComponent("lib/systemd/system/herald.service"), encoding: .utf8)
        #expect(unit.contains("ExecStart=/opt/herald/bin/herald serve"), "\(unit)")
        let manifest = try String(contentsOf: base.appendingPathComponent("share/herald/installed-files"), encoding: .utf8)
        #expect(manifest.split(separator: "\n").allSatisfy { $0.hasPrefix("/opt/herald/") }, "paths without DESTDIR: \(manifest)")
        // The installed binary is the one given, and runs.
        let installed = Process()
        installed.executableURL = base.appendingPathComponent("bin/herald")
        installed.arguments = ["--version"]
        installed.standardOutput = FileHandle.nullDevice
        try installed.run()
        installed.waitUntilExit()
        #expect(installed.terminationStatus == 0)

        let mine = base.appendingPathComponent("share/herald/themes/mine.toml")
        try Data("name = \"mine\"\n".utf8).write(to: mine)
        let uninstall = try Self.make(["uninstall", "DESTDIR=\(dest.path)", "PREFIX=\(prefix)"])
        #expect(uninstall.status == 0, "\(uninstall.output)")
        let left = (FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? []).filter { path in
            var directory: ObjCBool = false
            return FileManager.default.fileExists(atPath: base.appendingPathComponent(path).path, isDirectory: &directory) && !directory.boolValue
        }
        #expect(left == ["share/herald/themes/mine.toml"], "uninstall left \(left)")
    }
}
