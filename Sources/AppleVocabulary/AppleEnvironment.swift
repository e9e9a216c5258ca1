/// Which of Apple's two `verifyReceipt` endpoints answers.
public enum AppleEnvironment: String, Sendable, Codable {
    case production = "Production"
    case sandbox = "Sandbox"
}
