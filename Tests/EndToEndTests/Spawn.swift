import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to completion with a clean signal state and no inherited descriptors
/// (Foundation's Process leaks one into tmux's server, which then never lets the test finish).
/// The wait happens on a thread of its own: a test blocked in `waitpid` on one of the cooperative pool's threads
/// (two on a 2-core machine) would starve every async test for as long as the real binary runs. At most as many
/// children as there are cores run at once, as when the pool's width bounded them.
/// `counted: false` for a child that mostly waits on the clock (the real-kill campaign's pauses and slowed-down
/// clocks): it runs beside the others from the start, instead of queueing behind them for a slot.
func spawn(_ arguments: [String], stdin: String = "/dev/null", output: String, counted: Bool = true) async throws -> Int32 {
    if counted { await children.enter() }
    defer { if counted { Task { await children.leave() } } }
    let pid = try start(arguments, stdin: stdin, output: output)
    return await withCheckedContinuation { finished in
        Thread.detachNewThread { finished.resume(returning: waitFor(pid)) }
    }
}

/// The same, blocking the caller: only for a `defer`, where nothing can be awaited.
func spawnBlocking(_ arguments: [String], output: String) throws -> Int32 {
    waitFor(try start(arguments, stdin: "/dev/null", output: output))
}

private func start(_ arguments: [String], stdin: String, output: String) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    for fd in openDescriptors() where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var empty = sigset_t()
    sigemptyset(&empty)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &empty)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    var pid = pid_t()
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var result = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ)
    // A binary just copied can be "busy" for a moment: a child another test forks meanwhile holds the copy's write
    // descriptor until it closes it on its way to exec (the fork/exec race Go's os/exec also retries). A test copies
    // a binary with a child of its own, so that no descriptor of the copy is ever this process's to leak for longer.
    for _ in 0..<100 where result == ETXTBSY {
        usleep(20_000)
        result = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ)
    }
    guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
    return pid
}

/// The child's exit status as a shell gives it (128 + the signal when killed).
private func waitFor(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
}

private let children = Slots(ProcessInfo.processInfo.activeProcessorCount)

/// A counting semaphore for tasks: waiting suspends, it never blocks a thread.
private actor Slots {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ count: Int) { free = max(count, 1) }

    func enter() async {
        if free > 0 {
            free -= 1
        } else {
            await withCheckedContinuation { waiting.append($0) }
        }
    }

    func leave() {
        if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
    }
}

private func openDescriptors() -> [Int32] {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap { Int32($0) }
}

let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The binary `swift build` made (scripts/test builds it before the tests run).
var builtBinary: String {
    repositoryRoot.appendingPathComponent(".build/debug/iapsim").path
}

func makeWorkDirectory() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("iapsim-e2e-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
