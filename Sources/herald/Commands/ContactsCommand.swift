import ArgumentParser

/// `herald contacts …`: the address book from the command line.
struct ContactsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contacts",
        abstract: "Import, list, show, export and generate contacts.",
        subcommands: [ContactsImport.self, ContactsList.self, ContactsShow.self, ContactsAdd.self, ContactsEdit.self, ContactsDelete.self,
                      ContactsMerge.self, ContactsDuplicates.self, ContactsSync.self, ContactsBooks.self, ContactsMove.self, ContactsConflicts.self, ContactsResolve.self, ContactsAddEmail.self, ContactsQuery.self, ContactsTag.self, ContactsSegments.self, ContactsExport.self, ContactsGenerate.self]
    )
}
