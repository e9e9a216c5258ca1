import CNcursesw

/// SIGINT and SIGTERM noted rather than acted on, for a loop that closes its files before it exits (`iapsim serve`).
public enum QuitSignals {
    public static func catchThem() {
        cnc_catch_quit_signals()
    }

    public static var caught: Int32? {
        let number = cnc_caught_signal()
        return number == 0 ? nil : number
    }
}
