/* SPDX-License-Identifier: Apache-2.0 */
/* Not a test: a stream for checking cut frames with QSPY itself (format/qs/QS.md section 8).
 * `qs_cut_stream DIR` writes DIR/cut_new.qs: a session, a good frame, an escape-heavy frame cut
 * right after a 7D byte by the transmit ring's overwrite, then the frames that follow, as
 * evrec_qs_tx_get_block() hands them out; and DIR/cut_old.qs: the same without the filler byte
 * that now ends a cut frame (what the transmitter sent before). Feed both to
 * `qspy -f FILE -k -u 0 -r c0`. */
#include <stdio.h>
#include <string.h>
#include "evrec/evrec_qs_tx.h"
#include "qs_test_meta.h"
static uint8_t buf[1 << 16] __attribute__((aligned(4)));
int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: qs_cut_stream DIR\n");
        return 2;
    }
    evrec_qs_options_t o;
    memset(&o, 0, sizeof o);
    o.time_size = 4;
    for (int variant = 0; variant < 2; variant++) {
        evrec_qs_tx_t tx;
        static uint8_t stream[1 << 16];
        size_t got = 0;
        evrec_qs_tx_init(&tx, &k_meta, buf, sizeof buf, &o);
        evrec_qs_tx_session_start(&tx);
        got += evrec_qs_tx_get_block(&tx, stream + got, sizeof stream - got);
        evrec_qs_map_t m0;
        evrec_qs_event_map_t e0[K_EVENT_COUNT];
        evrec_qs_map_init(&m0, &k_meta, &o, e0, sizeof e0);
        size_t size = ((evrec_qs_map_entries_size(&k_meta) + 3u) & ~(size_t)3u) + evrec_qs_tx_ring_size(&m0, 2);
        /* a small ring, seq continued */
        uint8_t seq = tx.seq;
        evrec_qs_tx_init(&tx, &k_meta, buf, size, &o);
        tx.seq = seq;
        sensor_event_t z = k_sensor(0x00100000u, 9, 0x0909, 0x09090909u);
        evrec_qs_tx_event(&tx, &z);
        got += evrec_qs_tx_get_block(&tx, stream + got, sizeof stream - got);
        sensor_event_t a = k_sensor(0x7E7D7E7Du, 0x7E, 0x7D7E, 0x7D7D7E7Eu);
        evrec_qs_tx_event(&tx, &a);
        /* the frame's first 12 bytes: find a cut position right after a 7D */
        size_t k = 0;
        for (size_t i = 0; i < 20; i++) {
            size_t tail = (tx.head + tx.size - tx.used) % tx.size;
            if (tx.ring[(tail + i) % tx.size] == 0x7D) k = i + 1;
        }
        got += evrec_qs_tx_get_block(&tx, stream + got, k);
        fprintf(stderr, "cut after %zu bytes, last %02X\n", k, stream[got - 1]);
        for (uint32_t i = 0; tx.frames_cut == 0; i++) {
            sensor_event_t b = k_sensor(0x01000000u + i, 1, 0x0102, 0x03040506u);
            evrec_qs_tx_event(&tx, &b);
        }
        for (uint32_t i = 0; i < 3; i++) {
            sensor_event_t c = k_sensor(0x02000000u + i, 2, 0x0203, 0x04050607u);
            evrec_qs_tx_event(&tx, &c);
        }
        size_t at = got, n;
        while ((n = evrec_qs_tx_get_block(&tx, stream + got, 5)) > 0)
            got += n;
        if (variant == 1) { /* old: no filler */
            memmove(stream + at, stream + at + 1, got - at - 1);
            got--;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[1], variant ? "cut_old.qs" : "cut_new.qs");
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(stream, 1, got, f) != got || fclose(f) != 0) {
            fprintf(stderr, "qs_cut_stream: cannot write %s\n", path);
            return 1;
        }
        fprintf(stderr, "frames %llu lost %llu cut %llu last seq %u\n", (unsigned long long)tx.frames,
                (unsigned long long)tx.frames_lost, (unsigned long long)tx.frames_cut, tx.seq);
    }
    return 0;
}
