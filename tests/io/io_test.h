/* Helpers shared by the io tests: a scratch directory and small file utilities. */
#ifndef STEX_TESTS_IO_TEST_H
#define STEX_TESTS_IO_TEST_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A fresh directory under /tmp, removed (with its files) by scratch_remove. */
static inline void scratch_make(char *dir, size_t n)
{
    snprintf(dir, n, "/tmp/stex-test-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        exit(1);
    }
}

static inline int scratch_count(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    if (d)
        closedir(d);
    return n;
}

static inline void scratch_remove(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char p[4096];
    while (d && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        chmod(p, 0700);
        remove(p);
    }
    if (d)
        closedir(d);
    chmod(dir, 0700);
    rmdir(dir);
}

/* Whole file into a malloc'ed buffer; NULL if unreadable. */
static inline uint8_t *slurp(const char *path, size_t *n)
{
    *n = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc(len > 0 ? (size_t)len : 1);
    *n = fread(p, 1, (size_t)len, f);
    fclose(f);
    return p;
}

/* Whole file as NUL-terminated text (malloc'ed); NULL if unreadable. */
static inline char *slurp_text(const char *path)
{
    size_t n;
    uint8_t *p = slurp(path, &n);
    char *s = p ? realloc(p, n + 1) : NULL;
    if (!s) {
        free(p);
        return NULL;
    }
    s[n] = '\0';
    return s;
}

static inline void spit(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        exit(1);
    }
    fwrite(p, 1, n, f);
    fclose(f);
}

/* xorshift64*: reproducible test data. */
static inline uint64_t rng_next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1Dull;
}

#endif
