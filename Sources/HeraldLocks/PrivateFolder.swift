import Foundation

/// Databases hold secrets and personal data: their folder is made 0700 and their files are kept 0600, whatever the
/// umask of the process that opens them (a file an older version left 0644 is tightened on open).
public enum PrivateFolder {
    /// Makes `folder` (and missing parents) readable by its user only.
    public static func create(_ folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// Sets the SQLite database at `path` and its `-wal` and `-shm` files, where present, to 0600.
    public static func tightenDatabase(at path: String) {
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            chmod(file, 0o600)
        }
    }
}
