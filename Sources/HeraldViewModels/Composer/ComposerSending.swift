import HeraldCore

/// Where the Composer's send stands: one on its way, one waiting for the messages to load (Contacts' `I` came first)
/// or for the sender's name (`:name`), and the bulks the last one made.
struct ComposerSending {
    var isSending = false
    var sendWhenLoaded = false
    var awaitingSenderName = false
    var sentBulkIds: [String] = []
    /// The estimate the confirmation showed, for the send's bulks to keep.
    var estimate: PriceEstimate?
}
