/// A colour role: what a piece of the screen *is*. Themes map each role to colours and attributes.
nonisolated public enum Role: String, CaseIterable, Sendable, Hashable {
    case text, muted, accent, title, border
    case borderFocused = "border_focused"
    case selection
    case selectionInactive = "selection_inactive"
    case header, cursor, input, placeholder, highlight, changed
    case statusBar = "status_bar"
    case statusBarKey = "status_bar_key"
    case tabActive = "tab_active"
    case tabInactive = "tab_inactive"
    case toastInfo = "toast_info"
    case toastWarning = "toast_warning"
    case toastError = "toast_error"
    case modal
    case button
    case buttonFocused = "button_focused"
    case statusDelivered = "status_delivered"
    case statusPending = "status_pending"
    case statusFailed = "status_failed"
    case progressEmpty = "progress_empty"
    case error, warning, success
}
