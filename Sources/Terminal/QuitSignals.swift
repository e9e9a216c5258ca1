import CNcursesw

/// SIGINT and SIGTERM noted rather than acted on, for a loop that closes its files before it exits (`iapsim serve`).
/// Both calls stay in this file: the shim's flag is a `static` in a header, so each object file has its own.
public enum QuitSignals {
    public static func catchThem() {
        cnc_catch_quit_signals()
    }

    public static var caught: Int32? {
        let number = cnc_caught_signal()
        return number == 0 ? nil : number
    }
}
