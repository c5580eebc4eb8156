/* Replays every file of the folders given as arguments through a fuzz
 * target's LLVMFuzzerTestOneInput: CI's run of a kept corpus (run files,
 * provider call sequences), under ASan/UBSan there.  The target itself
 * aborts when its contract breaks; here an input passes by returning.  A
 * file that cannot be read, or is longer than the targets take (64 KiB),
 * fails the run instead of being skipped.  (The WGSL target has its own
 * replay, replay.c, which also checks the front end's verdicts.) */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { FUZZ_MAX_INPUT = 1 << 16 };

int main(int argc, char **argv)
{
    int files = 0, failures = 0;
    uint8_t *buf = malloc(FUZZ_MAX_INPUT + 1);
    if (!buf)
        return 1;
    for (int a = 1; a < argc; a++) {
        DIR *dir = opendir(argv[a]);
        if (!dir) {
            fprintf(stderr, "replay: %s: cannot open the folder\n", argv[a]);
            failures++;
            continue;
        }
        struct dirent *e;
        while ((e = readdir(dir))) {
            if (e->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[a], e->d_name);
            FILE *f = fopen(path, "rb");
            size_t n = f ? fread(buf, 1, FUZZ_MAX_INPUT + 1, f) : 0;
            if (!f || ferror(f) || n > FUZZ_MAX_INPUT) {
                fprintf(stderr, "replay: %s: %s\n", path,
                        !f || ferror(f) ? "cannot be read" : "longer than the targets take (64 KiB)");
                failures++;
            } else {
                LLVMFuzzerTestOneInput(buf, n);
                files++;
            }
            if (f)
                fclose(f);
        }
        closedir(dir);
    }
    free(buf);
    printf("replayed %d inputs; %d failed\n", files, failures);
    return files && !failures ? 0 : 1;
}
