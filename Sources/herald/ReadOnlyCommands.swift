/// Every subcommand that changes something, refused in read-only mode (`ChangingCommand`, checked by `Herald.main`
/// before the command runs). A new command that sends, edits, imports, deletes or changes the platform adds its line.
extension SendCommand: ChangingCommand {
    static let change = "send invitations"
    var changesSomething: Bool { !dryRun }
}
extension ShareEmail: ChangingCommand { static let change = "send email invitations" }
extension OptOutAdd: ChangingCommand { static let change = "opt numbers out" }
extension OptOutRemove: ChangingCommand { static let change = "take numbers off the opt-out list" }
extension BulksCancel: ChangingCommand { static let change = "take held invitations back" }
extension BulksMove: ChangingCommand { static let change = "move held invitations" }
extension ContactsImport: ChangingCommand { static let change = "import contacts" }
extension ContactsAdd: ChangingCommand { static let change = "add contacts" }
extension ContactsAddEmail: ChangingCommand { static let change = "add email addresses to contacts" }
extension ContactsEdit: ChangingCommand { static let change = "edit contacts" }
extension ContactsDelete: ChangingCommand { static let change = "delete contacts" }
extension ContactsMerge: ChangingCommand { static let change = "merge contacts" }
extension ContactsTag: ChangingCommand { static let change = "put contacts in groups" }
extension ContactsMove: ChangingCommand { static let change = "move contacts between address books" }
extension ContactsResolve: ChangingCommand { static let change = "settle conflicting cards" }
extension ContactsSync: ChangingCommand { static let change = "sync the address books" }
extension InboxSeen: ChangingCommand { static let change = "mark inbox messages seen" }
extension TemplatesCreate: ChangingCommand { static let change = "create messages" }
extension TemplatesUpdate: ChangingCommand { static let change = "change messages" }
extension TemplatesEditing: ChangingCommand {
    static let change = "turn message editing on or off"
    var changesSomething: Bool { state != nil }
}
extension SandboxPushInbox: ChangingCommand { static let change = "push inbox messages" }
extension SandboxReply: ChangingCommand { static let change = "receive replies" }
extension RepliesSend: ChangingCommand { static let change = "answer replies" }
extension RepliesSeen: ChangingCommand { static let change = "mark replies seen" }
extension RepliesShow: ChangingCommand {
    static let change = "mark replies seen"
    var changesSomething: Bool { markSeen }
}
