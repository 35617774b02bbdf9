#include <microhttpd.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct MHD_Response *response;

static enum MHD_Result handler(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                               const char *version, const char *upload, size_t *upload_size, void **ctx) {
    static int marker;
    if (*ctx == NULL) { *ctx = &marker; return MHD_YES; }
    return MHD_queue_response(c, MHD_HTTP_OK, response);
}

int main(int argc, char **argv) {
    /* argv: port, body file, mode: "reuseport" (two daemons, one listening socket each, the kernel
       shares connections out: Bindery's layout) or "pool" (one daemon, one listening socket, a
       thread pool of two, each thread its own epoll, accepting from the shared socket). */
    static char body[65536];
    FILE *f = fopen(argv[2], "rb");
    size_t n = f ? fread(body, 1, sizeof body, f) : 0;
    int pool = argc > 3 && strcmp(argv[3], "pool") == 0;
    response = MHD_create_response_from_buffer(n, body, MHD_RESPMEM_PERSISTENT);
    MHD_add_response_header(response, "Content-Type", "application/json");
    struct sockaddr_in addr = {0};
    addr.sin_family = AF_INET;
    addr.sin_port = htons((unsigned short)atoi(argv[1]));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    sigset_t signals;
    sigemptyset(&signals); sigaddset(&signals, SIGTERM); sigaddset(&signals, SIGINT);
    pthread_sigmask(SIG_BLOCK, &signals, NULL);
    struct MHD_Daemon *daemons[2];
    int count = pool ? 1 : 2;
    for (int i = 0; i < count; i++) {
        daemons[i] = pool
            ? MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL, 0, NULL, NULL, handler, NULL,
                MHD_OPTION_SOCK_ADDR, &addr, MHD_OPTION_THREAD_POOL_SIZE, 2u,
                MHD_OPTION_CONNECTION_TIMEOUT, 30u, MHD_OPTION_END)
            : MHD_start_daemon(MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL, 0, NULL, NULL, handler, NULL,
                MHD_OPTION_SOCK_ADDR, &addr, MHD_OPTION_LISTENING_ADDRESS_REUSE, 1u,
                MHD_OPTION_CONNECTION_TIMEOUT, 30u, MHD_OPTION_END);
        if (!daemons[i]) { fprintf(stderr, "cannot start daemon\n"); return 1; }
    }
    int signal;
    sigwait(&signals, &signal);
    for (int i = 0; i < count; i++) MHD_stop_daemon(daemons[i]);
    return 0;
}
