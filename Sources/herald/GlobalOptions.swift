import ArgumentParser
import Foundation
import HeraldCore
import HeraldStore

/// Options every subcommand takes.
struct GlobalOptions: ParsableArguments {
    @Option(name: .customLong("data-dir"), help: ArgumentHelp(
        "Folder for Herald's data (default: $HERALD_DATA_DIR, else $XDG_DATA_HOME/herald).", valueName: "dir"))
    var dataDir: String?

    @Option(name: .customLong("config"), help: ArgumentHelp(
        "The config file (default: $HERALD_CONFIG, else the profile's, else $XDG_CONFIG_HOME/herald/config.toml).", valueName: "file"))
    var configFile: String?

    @Option(name: .customLong("profile"), help: ArgumentHelp(
        "Use the profile NAME ($HERALD_PROFILE): its own config (profiles/NAME.toml beside config.toml) and data folder.",
        valueName: "name"))
    var profile: String?

    @Flag(name: .customLong("read-only"), help: ArgumentHelp(
        "Read and watch only (a support desk; $HERALD_READ_ONLY, read_only in config.toml): nothing is sent, edited, imported or deleted."))
    var readOnlyFlag = false

    var paths: HeraldPaths { HeraldPaths.resolve(dataDirOption: dataDir, configOption: configFile, profileOption: profile) }

    func validate() throws {
        if let profile, !HeraldPaths.isProfileName(profile) {
            throw ValidationError("--profile \"\(profile)\" is not a name of letters, digits, - or _ (at most 64)")
        }
        if let name = ProcessInfo.processInfo.environment["HERALD_PROFILE"], !name.isEmpty, !HeraldPaths.isProfileName(name) {
            throw ValidationError("HERALD_PROFILE \"\(name)\" is not a name of letters, digits, - or _ (at most 64)")
        }
    }

    /// The config file, with its warnings printed to stderr.
    func config() throws -> HeraldConfig {
        do {
            let config = try HeraldConfig.load(from: paths.configFile)
            for w in config.warnings { Output.warn(w) }
            return config
        } catch let e as ConfigError {
            throw Output.failure("\(e.description)\nFix the file or move it aside to use the defaults.")
        }
    }

    /// Opens (creating if needed) the database in the data folder.
    func openDatabase() throws -> HeraldDatabase {
        let dir = paths.dataDirectory
        do {
            return try HeraldDatabase.open(inDirectory: dir)
        } catch {
            throw Output.failure("cannot open the database in \(dir.path): \(StorageFailure.message(for: error) ?? String(describing: error))\nCheck that the folder is writable, or pass --data-dir DIR.")
        }
    }

    /// The address books of the config (`[[books]]`), recorded in the database `db` so edits write back to them.
    func addressBooks(_ db: HeraldDatabase, parser: PhoneNumberParser) throws -> AddressBooks {
        let books = AddressBooks(database: db, parser: parser)
        do { try books.register(try config().books) } catch let error as ExitCode { throw error } catch {
            throw Output.failure("cannot record the address books of \(paths.configFile.path): \(StorageFailure.message(for: error) ?? "\(error)")")
        }
        return books
    }

    /// The phone region: `--region`, else config, else LC_ALL/LANG; validated.
    func phoneParser(region option: String?) throws -> PhoneNumberParser {
        var region = option
        if region == nil { region = try config().region }
        if region == nil { region = PhoneNumberParser.regionFromEnvironment(ProcessInfo.processInfo.environment) }
        do { return try PhoneNumberParser(defaultRegion: region) } catch {
            throw Output.failure("\(error)")
        }
    }
}
