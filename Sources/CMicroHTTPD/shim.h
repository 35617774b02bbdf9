#ifndef BINDERY_CMICROHTTPD_H
#define BINDERY_CMICROHTTPD_H
#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>
#endif
