import Foundation
import Testing

/// A config.toml changed while the screens run is read again: new keys and the mouse setting apply at once, and a
/// file that cannot be used is said in place (with its line) while the settings in use stay.
@Suite struct UIConfigReloadTests {
    @Test func aChangedConfigAppliesLiveAndABrokenOneKeepsTheSettingsInUse() async throws {
        let ui = try await HeraldUISession.start(config: "[ui]\nmouse = false\n")
        _ = try await ui.waitForFirstFrame()
        _ = try await ui.waitFor("Contacts")
        #expect(try await ui.display(UIMouseTests.reporting) == "000")
        let file = ui.folder.appendingPathComponent("config/herald/config.toml")

        try Data("[keys]\nhelp = [\"h\"]\n".utf8).write(to: file)
        _ = try await ui.waitFor("config.toml read again")
        try await ui.keys("h")
        _ = try await ui.waitFor("Keys — 1 Contacts")
        try await ui.keys("Escape")
        #expect(try await ui.display(UIMouseTests.reporting).contains("1"), "the mouse is Herald's again")

        try Data("theme = 5\n".utf8).write(to: file)
        _ = try await ui.waitFor("config.toml:1: theme must be a string")
        try await ui.keys("h")
        _ = try await ui.waitFor("Keys — 1 Contacts")
    }
}
