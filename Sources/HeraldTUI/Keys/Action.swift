/// Everything a key can do. The raw value is the name used in the `[keys]` table of the config.
nonisolated public enum Action: String, CaseIterable, Sendable, Hashable {
    // global
    case quit, help, back
    case commandPalette = "command_palette"
    case paneContacts = "pane_contacts"
    case paneShare = "pane_share"
    case paneComposer = "pane_composer"
    case paneInbox = "pane_inbox"
    case paneDeliveries = "pane_deliveries"
    case nextPane = "next_pane"
    case previousPane = "previous_pane"
    case redraw
    case reload
    case suspend
    case takeBack = "take_back"
    // lists
    case moveUp = "move_up"
    case moveDown = "move_down"
    case pageUp = "page_up"
    case pageDown = "page_down"
    case halfPageUp = "half_page_up"
    case halfPageDown = "half_page_down"
    case first, last, open, search
    case nextMatch = "next_match"
    case previousMatch = "previous_match"
    case select
    case selectAll = "select_all"
    case selectNone = "select_none"
    case invertSelection = "invert_selection"
    case restoreSelection = "restore_selection"
    case selectRange = "select_range"
    case selectByState = "select_by_state"
    case sort, filter, copy
    // panes
    case invite, resend, topic, duplicates
    case addContact = "add_contact"
    case editContact = "edit_contact"
    case editContactInEditor = "edit_contact_in_editor"
    case deleteContact = "delete_contact"
    case mergeContacts = "merge_contacts"
    case settleConflict = "settle_conflict"
    case optOut = "opt_out"
    case sendTime = "send_time"
    case markSeen = "mark_seen"
    case markAllSeen = "mark_all_seen"
    case markUnread = "mark_unread"
    case chooseUser = "choose_user"
    case clearTopic = "clear_topic"
    case nextMessage = "next_message"
    case previousMessage = "previous_message"
    case dateRange = "date_range"
    case editMessage = "edit_message"
    case editExternal = "edit_external"
    case insertPlaceholder = "insert_placeholder"
    case send
    case shareQR = "share_qr"
    case nextTemplate = "next_template"
    case previousTemplate = "previous_template"
    case nextPreview = "next_preview"
    case previousPreview = "previous_preview"
    case cycleSignature = "cycle_signature"
    case editSender = "edit_sender"
    case saveTemplate = "save_template"
    case switchChannel = "switch_channel"
    // editor
    case finishEditing = "finish_editing"
    case earlierSearch = "earlier_search"
    case laterSearch = "later_search"
    // a yes/no question
    case yes, no
    case keepMine = "keep_mine"
    case keepTheirs = "keep_theirs"
    case switchButton = "switch_button"
    case pressButton = "press_button"
    // the command palette
    case runCommand = "run_command"
    case complete
    case previousCommand = "previous_command"
    case nextCommand = "next_command"
    case closePalette = "close_palette"
}
