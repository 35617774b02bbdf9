import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Free ports on the loopback address, for servers a test starts itself.
public enum LoopbackPort {
    /// A port the kernel just handed out on 127.0.0.1 (free now; a start that finds it taken
    /// should retry with another).
    public static func free() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw LoopbackPortError(description: "socket() failed: errno \(errno)") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && getsockname(socket, address, &length) == 0
            }
        }
        guard bound else { throw LoopbackPortError(description: "bind() on 127.0.0.1 failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts connections on 127.0.0.1:`port`.
    public static func accepts(_ port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

/// Why no loopback port could be had.
public struct LoopbackPortError: Error, CustomStringConvertible {
    /// What failed.
    public var description: String
}
