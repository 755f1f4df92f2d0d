import HeraldServices

/// Where the Inbox's page reads stand: a first page or an older one being read, a background refresh and one asked
/// for during it, why the last refresh failed, the last page read and whether older ones exist, whether the list
/// comes from the local cache, and the counters that make a late answer count for nothing.
struct InboxReads {
    var isLoading = false
    var isRefreshing = false
    /// Why the last refresh failed (what is shown stays); nil once one succeeds.
    var refreshProblem: String?
    /// A refresh was asked for while one was running: it runs once that one is done.
    var refreshAgain = false
    /// Bumped by every local seen mark (a refresh started before one is dropped).
    var seenEdits = 0
    /// Bumped on every new first-page load: answers to older requests are dropped.
    var generation = 0
    var lastPage: InboxPage?
    var hasMore = false
    /// True when the platform could not be reached and the list comes from the local cache.
    var fromCache = false
}
