import HeraldServices
import HeraldViewModels

/// Toasts posted by a view-model: `board` is the shell's toast board its context posts to (keeping every toast), or
/// `sink()` takes them from a part that posts through a closure (the copier).
final class ToastLog {
    let board: ToastBoard
    private var posted: [(level: ToastLevel, text: String)] = []
    init() {
        board = ToastBoard()
        board.limit = .max
    }
    var entries: [(level: ToastLevel, text: String)] { posted + board.notes.map { ($0.level, $0.text) } }
    var texts: [String] { entries.map(\.text) }
    func sink() -> (ToastLevel, String) -> Void { { [weak self] in self?.posted.append(($0, $1)) } }
}
