extension PlatformEngine {
    /// Whether `code` is the application code of an application here: a server tells a right code that its policy
    /// refuses (403, saying why) from a guess (a failed authentication, counted against the client).
    public nonisolated func isApplicationCode(_ code: String) async throws -> Bool {
        guard !code.isEmpty, code.utf8.count <= 256 else { return false }
        return try await store.read { db in try db.applications.find(code: code) != nil }
    }
}
