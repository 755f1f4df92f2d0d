import HeraldServices

/// Toasts posted by a view-model.
final class ToastLog {
    var entries: [(level: ToastLevel, text: String)] = []
    var texts: [String] { entries.map(\.text) }
    func sink() -> (ToastLevel, String) -> Void { { [weak self] in self?.entries.append(($0, $1)) } }
}
