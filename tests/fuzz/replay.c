/* Replays every file of the folders given as arguments through a fuzz
 * target's LLVMFuzzerTestOneInput: CI's run of the kept corpus. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    int files = 0;
    for (int a = 1; a < argc; a++) {
        DIR *dir = opendir(argv[a]);
        if (!dir) {
            fprintf(stderr, "replay: cannot open %s\n", argv[a]);
            return 1;
        }
        struct dirent *e;
        while ((e = readdir(dir))) {
            if (e->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[a], e->d_name);
            FILE *f = fopen(path, "rb");
            if (!f)
                continue;
            uint8_t *buf = malloc(1 << 16);
            size_t n = buf ? fread(buf, 1, 1 << 16, f) : 0;
            fclose(f);
            LLVMFuzzerTestOneInput(buf, n);
            free(buf);
            files++;
        }
        closedir(dir);
    }
    printf("replayed %d inputs\n", files);
    return files ? 0 : 1;
}
