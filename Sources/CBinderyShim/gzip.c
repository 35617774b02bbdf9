#include "CBinderyShim.h"

#include <zlib.h>

// Exists because zlib's `deflateInit2` is a macro, which Swift cannot call. Compresses `length`
// bytes into a gzip member (RFC 1952) at the best compression level, for static files that are
// compressed once and then served many times. Returns the compressed size, or 0 when it does not
// fit in `capacity` or zlib fails.
size_t bindery_gzip(const uint8_t *input, size_t length, uint8_t *output, size_t capacity) {
    z_stream stream = {0};
    // 15 window bits + 16: a gzip header and trailer instead of zlib's.
    if (deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) {
        return 0;
    }
    stream.next_in = (Bytef *)input;
    stream.avail_in = (uInt)length;
    stream.next_out = output;
    stream.avail_out = (uInt)capacity;
    int status = deflate(&stream, Z_FINISH);
    size_t written = capacity - stream.avail_out;
    deflateEnd(&stream);
    return status == Z_STREAM_END ? written : 0;
}
