#ifndef BINDERY_SHIM_H
#define BINDERY_SHIM_H

// The thin C layer between Swift and libmicrohttpd. Swift cannot call C variadic functions
// (MHD_start_daemon, MHD_get_daemon_info, MHD_get_connection_info) nor receive a va_list, so
// each function here wraps exactly one of those. No policy lives in C.
//
// Two more wrap glibc's heap interface (<malloc.h>), which Swift's Glibc module does not export:
// `bindery_heap_figures` (mallinfo2) and `bindery_heap_trim` (malloc_trim). One wraps zlib's
// `deflateInit2` macro: `bindery_gzip`.

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <microhttpd.h>

/// Receives one formatted libmicrohttpd error-log line.
typedef void (*bindery_log_fn)(void *context, const char *message);

/// Everything `bindery_start_daemon` needs, as one struct instead of a variadic option list.
/// The struct must stay valid (same address) until the daemon is stopped: the error-log
/// trampoline receives a pointer to it.
struct bindery_daemon_options {
    /// Numeric IPv4 or IPv6 address to bind ("127.0.0.1", "::1", "0.0.0.0").
    const char *host;
    /// Port to bind; 0 lets the kernel choose.
    uint16_t port;
    /// Whether to set MHD_OPTION_LISTENING_ADDRESS_REUSE (several daemons on one port).
    int reuse_address;
    unsigned int connection_limit;
    unsigned int per_ip_connection_limit;
    unsigned int connection_timeout_seconds;
    size_t connection_memory_limit;
    MHD_AccessHandlerCallback access_handler;
    void *access_handler_context;
    MHD_RequestCompletedCallback completed_handler;
    void *completed_handler_context;
    /// Told when a connection opens and closes (MHD_OPTION_NOTIFY_CONNECTION).
    MHD_NotifyConnectionCallback connection_handler;
    void *connection_handler_context;
    bindery_log_fn log;
    void *log_context;
};

/// Starts one single-threaded epoll daemon with suspend/resume, error log and limits.
/// Exists because MHD_start_daemon is variadic. Returns NULL on failure and sets
/// `*error_code` (EINVAL for a host that is not a numeric address, else errno or -1).
struct MHD_Daemon *bindery_start_daemon(const struct bindery_daemon_options *options,
                                        int *error_code);

/// The port the daemon is bound to, or 0. Exists because MHD_get_daemon_info is variadic.
uint16_t bindery_daemon_port(struct MHD_Daemon *daemon);

/// Writes the client's numeric address into `buffer`; returns 0 on success, -1 otherwise.
/// Exists because MHD_get_connection_info is variadic.
int bindery_client_address(struct MHD_Connection *connection, char *buffer, size_t size);

/// The connection's socket descriptor, or -1. Exists because MHD_get_connection_info is variadic.
/// Used only to shut the socket down (never to close it) when a request head is overdue.
int bindery_connection_socket(struct MHD_Connection *connection);

/// glibc's heap figures, summed over every arena (mallinfo2).
struct bindery_heap_figures {
    /// Bytes allocated and not yet freed: in arenas (uordblks) plus in their own mmaps (hblkhd).
    size_t in_use;
    /// Bytes freed but kept by the allocator for later allocations (fordblks). Part of them may
    /// already be returned to the kernel page by page (malloc_trim), so it bounds what RSS holds.
    size_t free;
};

/// Fills `figures` from mallinfo2; returns 0, or -1 where the C library has no mallinfo2 (not
/// glibc 2.33 or later). Exists because Swift's Glibc module does not export <malloc.h>.
int bindery_heap_figures(struct bindery_heap_figures *figures);

/// Returns the free pages of every arena to the kernel (malloc_trim(0)); 1 if memory was
/// released, 0 if none could be, -1 where the C library has no malloc_trim. Exists because
/// Swift's Glibc module does not export <malloc.h>.
int bindery_heap_trim(void);

/// Compresses `length` bytes of `input` into a gzip member in `output` (at most `capacity`
/// bytes); returns the compressed size, or 0 when it does not fit or zlib fails. Exists because
/// zlib's deflateInit2 is a macro.
size_t bindery_gzip(const uint8_t *input, size_t length, uint8_t *output, size_t capacity);

#endif
