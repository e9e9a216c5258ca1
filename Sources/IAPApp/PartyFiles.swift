import ClientPersistence
import Foundation
import MockBackend
import MockStore

/// Every party's database in a data directory, opened (created when new) before the parties that work on them are made:
/// a launch opens them while it reads its catalog beside.
public struct PartyFiles {
    let store: StoreDatabase
    let backend: BackendDatabase
    let vault: ClientDatabase
    /// The files this opening created: removed again when the launch fails before its parties are made.
    let created: [String]

    /// When one cannot be opened, the files this attempt created are removed again: a failed launch leaves the
    /// directory as it found it.
    public static func open(in directory: DataDirectory) throws -> PartyFiles {
        let created = directory.openedFiles.filter { !DataDirectory.exists($0) }
        do {
            return try openEach(in: directory, created: created)
        } catch {
            // By now the files opened are closed again (their objects went with the failed attempt).
            for file in created { unlink(file) }
            throw error
        }
    }

    private static func openEach(in directory: DataDirectory, created: [String]) throws -> PartyFiles {
        // The device's two files open on another core while Apple's and the server's open here: a launch's files are
        // most of what its first frame waits for.
        let device = WorkAside { Result { try ClientDatabase(keychainPath: directory.keychain, sandboxPath: directory.sandbox) } }
        let opened = Result { (try StoreDatabase(path: directory.store, device: directory.device), try BackendDatabase(path: directory.backend)) }
        // Waited for even when the others failed: the files made are removed only once nothing can make more.
        let vault = device.result()
        let (store, backend) = try opened.get()
        return PartyFiles(store: store, backend: backend, vault: try vault.get(), created: created)
    }

    /// Closes the files and removes those this opening created: the parties could not be made on them.
    func abandon() {
        try? store.close()
        try? backend.close()
        try? vault.close()
        for file in created { unlink(file) }
    }
}
