import HeraldStore

/// The whole cause of `error`, for the log file: a storage error's own SQLite text is kept (people
/// read `userMessage(for:)` instead, which says what it means and what to do).
func logCause(_ error: any Error) -> String {
    if let storage = error as? StorageError { return String(describing: storage.underlying) }
    return String(describing: error)
}
