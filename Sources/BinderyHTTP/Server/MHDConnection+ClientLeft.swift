#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension MHDConnection {
    /// Whether the client has left: its socket reads end-of-file (it closed or half-closed its
    /// side) or an error such as a reset. Peeks at one byte without waiting and consumes nothing,
    /// so a live client's pipelined bytes stay for libmicrohttpd.
    ///
    /// Only for a suspended connection, under the lock that owns its resume: libmicrohttpd then
    /// neither reads the socket nor closes it, so the descriptor is this connection's.
    var clientHasLeft: Bool {
        let socket = self.socket
        guard socket >= 0 else { return true }
        var byte: UInt8 = 0
        let count = recv(socket, &byte, 1, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
        if count > 0 { return false }
        if count == 0 { return true }
        switch errno {
        case EAGAIN, EWOULDBLOCK, EINTR: return false
        default: return true
        }
    }
}
