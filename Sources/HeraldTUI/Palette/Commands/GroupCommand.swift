extension PaletteCommand {
    /// `:group NAME`: Contacts lists the people in a group (the search `group:NAME`); with no name, the one group of
    /// the person open.
    static let group = PaletteCommand("group", argument: "NAME", summary: "list the people in a group (group:NAME)") { argument, screen in
        screen.forward(to: .contacts, as: ContactsPane.self) { pane in
            if let query = pane.viewModel.groupQuery(argument) { pane.showList(matching: query) }
        }
    }
}
