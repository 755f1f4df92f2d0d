import Foundation
@testable import HeraldTUI
import HeraldTestKit
import Testing

@Suite struct ThemeTests {
    nonisolated static let builtinNames = ["default", "high-contrast", "light", "monochrome", "solarized"]

    @Test(arguments: builtinNames) func everyBuiltinThemeLoadsFromTheRepositoryWithEveryRole(name: String) throws {
        let loader = ThemeLoader(userDirectory: nil, builtinDirectory: RepositoryFiles.url("themes"))
        let theme = try loader.load(name)
        #expect(theme.name == name)
        #expect(theme.missingRoles.isEmpty)
    }

    @Test(arguments: builtinNames) func embeddedCopyWorksWithoutTheThemesFolder(name: String) throws {
        let loader = ThemeLoader(userDirectory: nil, builtinDirectory: nil)
        let embedded = try loader.load(name)
        let fromFile = try ThemeLoader(userDirectory: nil, builtinDirectory: RepositoryFiles.url("themes")).load(name)
        #expect(embedded == fromFile)
    }

    /// NO_COLOR leaves attributes only: the cursor row and the selections still stand out from text in every theme.
    @Test(arguments: builtinNames) func withoutColourTheCursorAndSelectionsStillShow(name: String) throws {
        let theme = try ThemeLoader(userDirectory: nil, builtinDirectory: nil).load(name)
        let text = theme.resolve(Style(.text), depth: .none)
        for role in [Role.selection, .selectionInactive, .cursor, .tabActive, .buttonFocused] {
            let styled = theme.resolve(Style(role), depth: .none)
            #expect(styled != text, "\(name): \(role) looks like text without colours")
            #expect(styled.fg == .default && styled.bg == .default, "\(name): no colour under NO_COLOR")
        }
    }

    @Test func builtinThemesSwiftMatchesTheThemeFiles() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: RepositoryFiles.url("themes").path)
            .filter { $0.hasSuffix(".toml") }.sorted()
        var out = "// Generated from themes/*.toml by scripts/generate.sh (make docs). Do not edit.\n"
        out += "/// The built-in themes' text, compiled in so an installed binary works without the themes folder.\n"
        out += "nonisolated enum BuiltinThemes {\n    static let sources: [String: String] = [\n"
        for file in files {
            let text = RepositoryFiles.read("themes/" + file) ?? ""
            out += "        \"\(file.dropLast(5))\": #\"\"\"\n" + text + "\"\"\"#,\n"
        }
        out += "    ]\n}\n"
        let path = "Sources/HeraldTUI/Theme/BuiltinThemes.swift"
        RepositoryFiles.expectGenerated(path, is: out)
    }

    @Test func userThemeShadowsTheBuiltinAndMayInheritFromABase() throws {
        let tempDir = try TempDir("themes")
        let dir = tempDir.url
        try """
        name = "default"
        base = "light"
        [roles]
        accent = { fg = "#ff0000", attrs = ["underline"] }
        """.write(to: dir.appendingPathComponent("default.toml"), atomically: true, encoding: .utf8)
        let loader = ThemeLoader(userDirectory: dir, builtinDirectory: RepositoryFiles.url("themes"))
        let theme = try loader.load("default")
        #expect(theme.roles[.accent] == RoleStyle(fg: .rgb(255, 0, 0), attributes: .underline))
        let light = try loader.load("light")
        #expect(theme.roles[.selection] == light.roles[.selection])
    }

    @Test func userThemesDirectoryFollowsXDG() {
        #expect(ThemeLoader.userThemesDirectory(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"])?.path == "/x/herald/themes")
        #expect(ThemeLoader.userThemesDirectory(environment: ["HOME": "/h"])?.path == "/h/.config/herald/themes")
    }

    @Test func builtinDirectoryFromEnvironmentOrNextToTheExecutable() throws {
        #expect(ThemeLoader.findBuiltinDirectory(environment: ["HERALD_THEMES_DIR": "/t"], executablePath: nil)?.path == "/t")
        let found = ThemeLoader.findBuiltinDirectory(environment: [:], executablePath: RepositoryFiles.url(".build/debug/herald").path)
        #expect(found?.standardizedFileURL.path == RepositoryFiles.url("themes").standardizedFileURL.path)
    }

    @Test func unknownKeysRolesAndAttributesAreRefusedByName() {
        func problem(_ text: String) -> String {
            do { _ = try ThemeParser.parse(text, source: "/home/u/mine.toml", defaultName: "mine"); return "" } catch { return error.description }
        }
        #expect(problem("colour = 1") == "theme /home/u/mine.toml: unknown key(s) colour (allowed: base, description, name, roles)")
        #expect(problem("[roles]\nsparkle = { fg = \"red\" }").contains("unknown role \"sparkle\""))
        #expect(problem("[roles]\ntext = { fg = \"red\", blink = true }").contains("role \"text\": unknown key(s) blink"))
        #expect(problem("[roles]\ntext = { attrs = [\"blink\"] }").contains("unknown attribute"))
        #expect(problem("[roles]\ntext = { fg = \"#12345\" }").contains("invalid colour \"#12345\""))
        #expect(problem("[roles]\ntext = { fg = 300 }").contains("invalid colour \"300\""))
        #expect(problem("name = [").contains("not valid TOML"))
    }

    @Test func themeWithoutBaseMustListEveryRole() throws {
        let tempDir = try TempDir("themes")
        let dir = tempDir.url
        try "[roles]\ntext = { fg = \"red\" }".write(to: dir.appendingPathComponent("bare.toml"), atomically: true, encoding: .utf8)
        #expect(throws: ThemeError.self) { try ThemeLoader(userDirectory: dir, builtinDirectory: nil).load("bare") }
        #expect(throws: ThemeError.self) { try ThemeLoader(userDirectory: dir, builtinDirectory: nil).load("../etc/passwd") }
        #expect(throws: ThemeError.self) { try ThemeLoader(userDirectory: dir, builtinDirectory: nil).load("nonexistent") }
    }

    @Test func aThemeFolderThatCannotBeListedIsNamedWhenAThemeIsNotFound() throws {
        let tempDir = try TempDir("themes")
        let dir = tempDir.url
        let notAFolder = dir.appendingPathComponent("themes")
        try "x".write(to: notAFolder, atomically: true, encoding: .utf8)
        let loader = ThemeLoader(userDirectory: notAFolder, builtinDirectory: nil)
        do {
            _ = try loader.load("mine")
            Issue.record("no theme \"mine\" anywhere")
        } catch {
            #expect(error.problem.contains("no such theme"))
            #expect(error.problem.contains("\(notAFolder.path) cannot be listed"))
        }
        // A folder that does not exist is no problem (most people have no user themes).
        let missing = ThemeLoader(userDirectory: dir.appendingPathComponent("none"), builtinDirectory: nil)
        do { _ = try missing.load("mine") } catch { #expect(!error.problem.contains("cannot be listed")) }
        #expect(loader.availableNames() == missing.availableNames())
    }

    @Test func colourDepthFollowsTheEnvironment() {
        #expect(ColorDepth.detect(environment: ["COLORTERM": "truecolor"], terminfoColors: 256) == .truecolor)
        #expect(ColorDepth.detect(environment: ["COLORTERM": "24bit"], terminfoColors: 8) == .truecolor)
        #expect(ColorDepth.detect(environment: [:], terminfoColors: 256) == .palette256)
        #expect(ColorDepth.detect(environment: [:], terminfoColors: 8) == .ansi16)
        #expect(ColorDepth.detect(environment: ["NO_COLOR": "1", "COLORTERM": "truecolor"], terminfoColors: 256) == .none)
        #expect(ColorDepth.detect(environment: ["NO_COLOR": ""], terminfoColors: 256) == .palette256)
    }

    @Test func rgbIsDownsampledToTheNearestPaletteColour() {
        #expect(ColorDownsampler.convert(.rgb(0x5f, 0xaf, 0xff), to: .palette256) == .indexed(75))
        #expect(ColorDownsampler.convert(.rgb(0x80, 0x80, 0x80), to: .palette256) == .indexed(244))
        #expect(ColorDownsampler.convert(.rgb(250, 10, 10), to: .ansi16) == .ansi(9))
        #expect(ColorDownsampler.convert(.rgb(0, 0, 0), to: .ansi16) == .ansi(0))
        #expect(ColorDownsampler.convert(.indexed(196), to: .ansi16) == .ansi(9))
        #expect(ColorDownsampler.convert(.rgb(1, 2, 3), to: .none) == .default)
        #expect(ColorDownsampler.convert(.rgb(1, 2, 3), to: .truecolor) == .rgb(1, 2, 3))
    }

    @Test func resolvingAStyleFallsBackToTextColoursAndBorrowsBackgrounds() throws {
        let theme = try ThemeLoader(userDirectory: nil, builtinDirectory: nil).load("default")
        let resolved = theme.resolve(Style(.statusDelivered, background: .foregroundOf(.statusFailed)), depth: .truecolor)
        #expect(resolved.fg == .rgb(0x5f, 0xd7, 0x5f))
        #expect(resolved.bg == .rgb(0xff, 0x5f, 0x5f))
        let muted = theme.resolve(Style(.muted, .bold), depth: .palette256)
        #expect(muted == ResolvedStyle(fg: .indexed(245), bg: .default, attributes: .bold))
        let mono = try ThemeLoader(userDirectory: nil, builtinDirectory: nil).load("monochrome")
        #expect(mono.resolve(Style(.selection)) == ResolvedStyle(attributes: .reverse))
        #expect(theme.resolve(Style(.selection), depth: .none).fg == .default)
    }

    @Test func theLightThemePaintsItsOwnBackgroundInEveryRoleWithoutOne() throws {
        let light = try ThemeLoader(userDirectory: nil, builtinDirectory: nil).load("light")
        for role in [Role.text, .muted, .border, .title, .highlight, .statusFailed] {
            #expect(light.resolve(Style(role)).bg != .default, "\(role) would show the terminal's own (maybe dark) background")
        }
    }

    @Test(arguments: builtinNames) func theSelectionMarkOnTheCursorRowDiffersFromItsBackground(name: String) throws {
        let theme = try ThemeLoader(userDirectory: nil, builtinDirectory: nil).load(name)
        let cursorRow = theme.resolve(Style(.selection, .bold))
        #expect(cursorRow.fg != cursorRow.bg || cursorRow.attributes.contains(.reverse) || name == "monochrome")
    }
}
