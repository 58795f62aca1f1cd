/* SPDX-License-Identifier: Apache-2.0 */
/* ClickHouse's HTTP interface through libcurl: a POST per request, the query in the URL for an
 * INSERT (its rows are the body) or in the body otherwise. A status other than 200 is a failure
 * whose text is ClickHouse's own message (the response body). */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clickhouse.h"

/* The response body, kept whole (queries) up to a limit: a failure's text is short. */
typedef struct resp {
    char *p;
    size_t len, cap;
} resp_t;

#define RESP_MAX (64u * 1024u * 1024u)

static size_t on_body(char *data, size_t size, size_t n, void *ctx)
{
    resp_t *r = ctx;
    size_t k = size * n;
    if (r->len + k + 1 > r->cap) {
        size_t cap = r->cap ? r->cap : 4096;
        while (cap < r->len + k + 1) {
            cap *= 2;
        }
        char *p = cap <= RESP_MAX ? realloc(r->p, cap) : NULL;
        if (!p) {
            return 0; /* curl fails the transfer: CURLE_WRITE_ERROR */
        }
        r->p = p;
        r->cap = cap;
    }
    memcpy(r->p + r->len, data, k);
    r->len += k;
    r->p[r->len] = 0;
    return k;
}

int ch_open(ch_conn_t *c, const char *url, const char *database)
{
    static int global_done;
    memset(c, 0, sizeof *c);
    c->url = url;
    c->database = database;
    if (!global_done) {
        curl_global_init(CURL_GLOBAL_DEFAULT);
        global_done = 1;
    }
    c->curl = curl_easy_init();
    if (!c->curl) {
        snprintf(c->error, sizeof c->error, "libcurl could not start");
        return -1;
    }
    return 0;
}

void ch_close(ch_conn_t *c)
{
    if (c->curl) {
        curl_easy_cleanup(c->curl);
        c->curl = NULL;
    }
}

/* The URL: base, '?' or '&', database=DB, then `extra` (already "k=v&k=v", escaped). */
static char *make_url(ch_conn_t *c, int use_db, const char *extra)
{
    char *db = use_db && c->database ? curl_easy_escape(c->curl, c->database, 0) : NULL;
    size_t n = strlen(c->url) + (db ? strlen(db) : 0) + (extra ? strlen(extra) : 0) + 32;
    char *u = malloc(n);
    if (u) {
        const char *sep = strchr(c->url, '?') ? "&" : "?";
        snprintf(u, n, "%s%s%s%s%s%s", c->url, sep, db ? "database=" : "", db ? db : "", db && extra ? "&" : "",
                 extra ? extra : "");
    }
    curl_free(db);
    return u;
}

/* POST `body` (n bytes) to `url`; the response in *out (or freed). */
static int post(ch_conn_t *c, const char *url, const void *body, size_t n, char **out)
{
    CURL *h = c->curl;
    resp_t r = {0};
    curl_easy_reset(h);
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_POST, 1L);
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)n);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &r);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    struct curl_slist *hd = curl_slist_append(NULL, "Content-Type: application/octet-stream");
    hd = curl_slist_append(hd, "Expect:"); /* no 100-continue round trip per batch */
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hd);
    CURLcode rc = curl_easy_perform(h);
    long status = 0;
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(hd);
    if (rc != CURLE_OK) {
        snprintf(c->error, sizeof c->error, "%s: %s", c->url, curl_easy_strerror(rc));
    } else if (status != 200) {
        size_t k = r.len;
        while (k && (r.p[k - 1] == '\n' || r.p[k - 1] == '\r')) {
            r.p[--k] = 0;
        }
        snprintf(c->error, sizeof c->error, "HTTP %ld: %s", status, r.p ? r.p : "(no text)");
    } else {
        c->bytes_sent += n;
        if (out) {
            *out = r.p ? r.p : calloc(1, 1);
            return *out ? 0 : -1;
        }
        free(r.p);
        return 0;
    }
    free(r.p);
    return -1;
}

int ch_query(ch_conn_t *c, const char *sql, int use_db, char **out)
{
    char *url = make_url(c, use_db, NULL);
    if (!url) {
        snprintf(c->error, sizeof c->error, "out of memory");
        return -1;
    }
    int rc = post(c, url, sql, strlen(sql), out);
    free(url);
    return rc;
}

int ch_insert(ch_conn_t *c, const char *table, const void *rows, size_t n)
{
    char q[256];
    snprintf(q, sizeof q, "INSERT INTO %s FORMAT RowBinary", table);
    char *eq = curl_easy_escape(c->curl, q, 0);
    char extra[512];
    snprintf(extra, sizeof extra, "query=%s%s%s", eq ? eq : "", c->insert_settings ? "&" : "",
             c->insert_settings ? c->insert_settings : "");
    curl_free(eq);
    char *url = make_url(c, 1, extra);
    if (!url) {
        snprintf(c->error, sizeof c->error, "out of memory");
        return -1;
    }
    int rc = post(c, url, rows, n, NULL);
    free(url);
    return rc;
}
