/// Apple IDs as a sandbox has them: testers made in App Store Connect, each an App Store account of its own.
public enum AppleID {
    /// The testers the devices panel's key signs in, in turn.
    public static let testers = ["sandbox-1", "sandbox-2", "sandbox-3"]

    /// The tester after `current`: the first when none, or one not of the list, is signed in.
    public static func after(_ current: String?) -> String {
        guard let current, let index = testers.firstIndex(of: current) else { return testers[0] }
        return testers[(index + 1) % testers.count]
    }
}
