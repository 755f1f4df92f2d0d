import Foundation
import Testing

/// `make install` as a packager runs it (DESTDIR, PREFIX), with the binary the tests built, and `make uninstall`
/// after it: everything lands where Debian's tools look (the binary, man pages of both sections, completions for
/// bash, zsh and fish, the themes, the systemd unit pointing at the installed binary), and uninstall removes exactly
/// that, leaving a file of the user's alone.
@Suite struct MakeInstallTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func make(_ arguments: [String]) throws -> ProgramRun {
        try ProgramRun("/usr/bin/make", ["-C", root.path, "--no-print-directory"] + arguments)
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
        #expect(try ProgramRun(base.appendingPathComponent("bin/herald").path, ["--version"]).status == 0)

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

    /// The check as a user would run it: `make install PREFIX=<a fresh folder>`, then that prefix's
    /// `man herald`, `herald --version` and bash completing `herald contacts show <TAB>` with contact ids.
    @Test func aFreshPrefixGivesTheManPageTheVersionAndCompletion() throws {
        let box = try CLISandbox()
        let prefix = box.root.appendingPathComponent("prefix")
        let install = try Self.make(["install-files", "PREFIX=\(prefix.path)", "BINARY=\(try HeraldBinary.url().path)"])
        #expect(install.status == 0, "\(install.output)")
        func run(_ command: String) throws -> ProgramRun {
            try ProgramRun("/bin/bash", ["-c", command], environment: box.environment.merging(
                ["PATH": prefix.path + "/bin:/usr/bin:/bin", "MANPATH": prefix.path + "/share/man", "HERALD_DATA_DIR": box.dataDir.path,
                 "MANPAGER": "cat", "MANWIDTH": "80"]) { _, new in new })
        }
        let man = try run("man herald")
        #expect(man.status == 0 && man.output.contains("HERALD(1)") && man.output.contains("herald.contacts(1)"), "\(man.output.prefix(400))")
        let config = try run("man 5 herald-config")
        #expect(config.status == 0 && config.output.contains("send.hold_seconds"), "\(config.output.prefix(400))")
        let version = try run("command -v herald && herald --version")
        #expect(version.status == 0 && version.output.hasPrefix(prefix.path + "/bin/herald\n") && version.output.contains("herald 0."),
                "\(version.output)")

        let card = try box.write("ana.vcf", "BEGIN:VCARD\nVERSION:3.0\nFN:Ana Horvat\nN:Horvat;Ana;;;\nEND:VCARD\n")
        #expect(try run("herald contacts import \(card.path)").status == 0)
        let completion = try run("""
            source \(prefix.path)/share/bash-completion/completions/herald
            COMP_WORDS=(herald contacts show ''); COMP_CWORD=3; COMP_LINE='herald contacts show '; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
            _herald herald '' show
            printf '%s\\n' "${COMPREPLY[@]}"
            """)
        let listed = try run("herald contacts list --json")
        let id = try #require(((try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [String: Any])?["contacts"]
            as? [[String: Any]])?.first?["id"] as? Int, "\(listed.output)")
        #expect(completion.output.split(separator: "\n") == ["\(id)"], "\(completion.output)")
    }
}
