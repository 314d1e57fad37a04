import Foundation

/// The lock a grouper-sim process holds while it writes a folder (a result, a shard, its
/// `DIR.partial/`, a `reproduce` folder): a hidden sibling file `.<name>.lock` holding
/// `grouper-sim lock`, the writer's pid and host, locked with flock(2). A second writer is
/// refused ("another grouper-sim, pid N, is writing DIR"); the lock of a process that died
/// (killed, crashed) is released by the system, so its file is taken over by the next writer.
/// Re-entrant within a process (a `run` holds it from start to end; writing the folder
/// takes it again).
public final class FolderLock: @unchecked Sendable {
    public let destination: URL
    let lockURL: URL
    private static let registry = NSLock()
    /// Lock file path → (descriptor, holders) of the locks this process holds.
    nonisolated(unsafe) private static var held: [String: (fd: Int32, count: Int)] = [:]
    private var released = false

    private init(destination: URL, lockURL: URL) { self.destination = destination; self.lockURL = lockURL }

    /// `.<name>.lock` next to `destination`.
    public static func lockFile(for destination: URL) -> URL {
        destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).lock")
    }

    public static let header = "grouper-sim lock"

    /// Takes the lock of `destination` (an absolute, resolved folder path; `label` names it in
    /// messages). Throws `OutputDirectory.WriteError` when another live process holds it, or
    /// when the lock file's name is taken by a file grouper-sim did not write; `IOFailure`
    /// when the file cannot be made.
    public static func acquire(_ destination: URL, label: String) throws -> FolderLock {
        let url = lockFile(for: destination)
        registry.lock(); defer { registry.unlock() }
        if let h = held[url.path] {
            held[url.path] = (h.fd, h.count + 1)
            return FolderLock(destination: destination, lockURL: url)
        }
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        for _ in 0..<20 {
            let fd = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
            guard fd >= 0 else {
                throw IOFailure("cannot create the lock file \(url.path) for \(label): \(String(cString: strerror(errno)))")
            }
            let existing = readAll(fd)
            if !existing.isEmpty && !existing.hasPrefix(header + "\n") {
                close(fd)
                throw OutputDirectory.WriteError(description: "\(url.path) exists and is not a grouper-sim lock (grouper-sim locks \(label) with it); move it away; nothing was written")
            }
            if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let why = errno
                close(fd)
                if why == EWOULDBLOCK || why == EAGAIN {
                    throw OutputDirectory.WriteError(description: "another grouper-sim, \(holder(existing)), is writing \(label); wait until it ends (nothing was written)")
                }
                throw IOFailure("cannot lock \(url.path) for \(label): \(String(cString: strerror(why)))")
            }
            // A writer that just finished may have removed the file we opened: lock the one at the path.
            var a = stat(), b = stat()
            guard fstat(fd, &a) == 0, stat(url.path, &b) == 0, a.st_dev == b.st_dev, a.st_ino == b.st_ino else {
                close(fd)
                continue
            }
            let text = "\(header)\npid \(getpid())\nhost \(ProcessInfo.processInfo.hostName)\n"
            guard ftruncate(fd, 0) == 0, pwrite(fd, text, text.utf8.count, 0) == text.utf8.count else {
                let why = String(cString: strerror(errno))
                close(fd)
                throw IOFailure("cannot write the lock file \(url.path): \(why)")
            }
            held[url.path] = (fd, 1)
            return FolderLock(destination: destination, lockURL: url)
        }
        throw IOFailure("cannot lock \(url.path) for \(label): the lock file keeps changing")
    }

    /// Releases this hold; the last one removes the lock file and unlocks it.
    public func release() {
        Self.registry.lock(); defer { Self.registry.unlock() }
        guard !released, let h = Self.held[lockURL.path] else { return }
        released = true
        if h.count > 1 { Self.held[lockURL.path] = (h.fd, h.count - 1); return }
        Self.held[lockURL.path] = nil
        unlink(lockURL.path)
        close(h.fd)
    }

    deinit { release() }

    /// Whether this process holds the lock of `destination`.
    public static func isHeld(_ destination: URL) -> Bool {
        registry.lock(); defer { registry.unlock() }
        return held[lockFile(for: destination).path] != nil
    }

    static func readAll(_ fd: Int32) -> String {
        var bytes: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 512), offset: off_t = 0
        while bytes.count < 4096 {
            let n = pread(fd, &buffer, buffer.count, offset)
            if n <= 0 { break }
            bytes += buffer[0..<n]
            offset += off_t(n)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// "pid N" (and "on host H" when it is another machine) from a lock file's text.
    static func holder(_ text: String) -> String {
        let lines = text.split(separator: "\n")
        let pid = lines.first { $0.hasPrefix("pid ") }.map { String($0.dropFirst(4)) } ?? "?"
        let host = lines.first { $0.hasPrefix("host ") }.map { String($0.dropFirst(5)) }
        return "pid \(pid)" + (host.map { $0 == ProcessInfo.processInfo.hostName ? "" : " on host \($0)" } ?? "")
    }
}
