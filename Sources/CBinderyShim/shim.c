#include "CBinderyShim.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

// Exists because MHD's error logger receives a va_list, which Swift cannot format:
// format the line here and hand Swift a plain C string.
static void bindery_log_trampoline(void *context, const char *format, va_list arguments) {
    const struct bindery_daemon_options *options = context;
    char message[512];
    vsnprintf(message, sizeof message, format, arguments);
    size_t length = strlen(message);
    while (length > 0 && (message[length - 1] == '\n' || message[length - 1] == '\r')) {
        message[--length] = '\0';
    }
    if (options->log != NULL) {
        options->log(options->log_context, message);
    }
}

// Exists so the access handler sees the request path exactly as sent: Swift percent-decodes
// it itself (per segment, so an encoded "/" or ".." cannot change the path's structure).
// Query arguments pass through this too and are decoded in Swift.
static size_t bindery_identity_unescape(void *context, struct MHD_Connection *connection, char *text) {
    (void)context;
    (void)connection;
    return strlen(text);
}

struct MHD_Daemon *bindery_start_daemon(const struct bindery_daemon_options *options,
                                        int *error_code) {
    struct sockaddr_in address4;
    struct sockaddr_in6 address6;
    const struct sockaddr *address;
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL
        | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;

    memset(&address4, 0, sizeof address4);
    memset(&address6, 0, sizeof address6);
    if (inet_pton(AF_INET, options->host, &address4.sin_addr) == 1) {
        address4.sin_family = AF_INET;
        address4.sin_port = htons(options->port);
        address = (const struct sockaddr *)&address4;
    } else if (inet_pton(AF_INET6, options->host, &address6.sin6_addr) == 1) {
        address6.sin6_family = AF_INET6;
        address6.sin6_port = htons(options->port);
        address = (const struct sockaddr *)&address6;
        flags |= MHD_USE_IPv6;
    } else {
        *error_code = EINVAL;
        return NULL;
    }

    errno = 0;
    // The logger first: libmicrohttpd reads the options in order, so a message about an option
    // before it would go to its default logger (stderr); it also complains when the logger is not.
    struct MHD_Daemon *daemon = MHD_start_daemon(
        flags, options->port, NULL, NULL,
        options->access_handler, options->access_handler_context,
        MHD_OPTION_EXTERNAL_LOGGER, bindery_log_trampoline, (void *)options,
        MHD_OPTION_SOCK_ADDR, address,
        MHD_OPTION_LISTENING_ADDRESS_REUSE, (unsigned int)(options->reuse_address ? 1 : 0),
        MHD_OPTION_CONNECTION_LIMIT, options->connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, options->per_ip_connection_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, options->connection_timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, options->connection_memory_limit,
        MHD_OPTION_NOTIFY_COMPLETED, options->completed_handler, options->completed_handler_context,
        MHD_OPTION_NOTIFY_CONNECTION, options->connection_handler, options->connection_handler_context,
        MHD_OPTION_UNESCAPE_CALLBACK, bindery_identity_unescape, NULL,
        MHD_OPTION_END);
    if (daemon == NULL) {
        *error_code = errno != 0 ? errno : -1;
    }
    return daemon;
}

uint16_t bindery_daemon_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

int bindery_client_address(struct MHD_Connection *connection, char *buffer, size_t size) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) {
        return -1;
    }
    const struct sockaddr *address = info->client_addr;
    const void *raw;
    if (address->sa_family == AF_INET) {
        raw = &((const struct sockaddr_in *)address)->sin_addr;
    } else if (address->sa_family == AF_INET6) {
        raw = &((const struct sockaddr_in6 *)address)->sin6_addr;
    } else {
        return -1;
    }
    return inet_ntop(address->sa_family, raw, buffer, (socklen_t)size) == NULL ? -1 : 0;
}

int bindery_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}
