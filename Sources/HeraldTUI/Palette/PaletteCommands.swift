extension PaletteCommand {
    /// THE list of palette commands, in the order completion offers them. A new command is a file in
    /// `Palette/Commands` and one line here.
    public static let all: [PaletteCommand] = [
        .quit,
        .help,
        .theme,
        .pane,
        .invite,
        .send,
        .resend,
        .user,
        .sort,
        .filter,
        .search,
        .group,
        .segment,
        .save,
        .tag,
        .select,
        .reload,
        .name,
        .move,
        .export,
    ]
}
