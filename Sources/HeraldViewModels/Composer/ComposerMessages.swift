import HeraldAPI

/// The Composer's messages as the platform gave them: the list (the default first), the one chosen, whether the
/// application lets them be edited (nil while unknown), and the read under way or why it failed.
struct ComposerMessages {
    var messages: [ApplicationMessage] = []
    var messageIndex = 0
    var editingAllowed: Bool?
    var isLoading = false
    var loadProblem: String?
}
