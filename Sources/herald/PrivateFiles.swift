import Foundation

/// Herald's files hold secrets (the application secret, key hashes, inbox bodies, phone numbers): folders it makes
/// are 0700 and files 0600, whatever the umask it was started with, and a looser folder it finds is named.
enum PrivateFiles {
    /// Every file and folder this process creates from now on is readable by its user only.
    static func restrictCreation() {
        umask(0o077)
    }

    /// A warning for `folder` when other users may read or enter it; nil when it is private or missing.
    static func looseness(of folder: URL) -> String? {
        guard let mode = (try? FileManager.default.attributesOfItem(atPath: folder.path))?[.posixPermissions] as? Int,
              mode & 0o077 != 0 else { return nil }
        return "\(folder.path) is open to other users (mode \(String(mode, radix: 8))): it holds keys and personal data; chmod 700 \(folder.path)"
    }

    /// Prints the warning for `folder` when it is loose.
    static func warnIfLoose(_ folder: URL) {
        if let warning = looseness(of: folder) { Output.warn(warning) }
    }
}
