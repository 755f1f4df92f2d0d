import Foundation
import Testing

/// `[ui] mouse = false` leaves the mouse to the terminal: Herald does not ask it for clicks and wheel turns, so the
/// terminal's own selection and copy work. By default it asks (clicks open rows, the wheel scrolls).
@Suite struct UIMouseTests {
    /// What tmux says the program in the pane asked of the mouse: "1" per reporting mode turned on.
    static let reporting = "#{mouse_standard_flag}#{mouse_button_flag}#{mouse_any_flag}"

    @Test func theMouseIsLeftToTheTerminalWhenTheConfigTurnsItOff() async throws {
        let on = try await HeraldUISession.start()
        _ = try await on.waitForFirstFrame()
        _ = try await on.waitFor("Contacts")
        #expect(try await on.display(Self.reporting).contains("1"), "by default Herald takes clicks and the wheel")

        let off = try await HeraldUISession.start(config: "[ui]\nmouse = false\n")
        _ = try await off.waitForFirstFrame()
        _ = try await off.waitFor("Contacts")
        #expect(try await off.display(Self.reporting) == "000", "with mouse = false the terminal keeps the mouse")
        // Everything else works as before: keys still move between panes.
        try await off.keys("5")
        _ = try await off.waitFor("Deliveries")
    }
}
