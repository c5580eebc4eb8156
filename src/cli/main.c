/* stex: the command-line front end.  `stex help` lists the subcommands. */
#include "cli/cli.h"

#include <string.h>

/* Add a subcommand here and in cli.h; keep the list in tour order. */
const cli_command cli_commands[] = {
    {"formats", "storage-texture formats and access modes under a feature set", cli_formats},
    {"store", "the bytes textureStore writes for a value, and what textureLoad returns", cli_store},
    {"validate", "validate a storageTexture layout entry: ok, or the error and the rule", cli_validate},
    {"layout", "tiled texel addresses and the cache lines a 3x3 stencil touches, tiled vs linear", cli_layout},
    {"run", "run one of the lessons' kernels and write its output (.bin, .npy, .png)", cli_run},
    {"race", "run a kernel under many schedules: distinct outputs, races, a picture", cli_race},
    {"compare", "compare a readback with a golden (exact, ulp:N, allowed)", cli_compare},
    {"demo", "a few seconds' tour: formats, conversions, validation, a race", cli_demo},
    {"eval", "a WGSL expression as each profile computes it (bits and value)", cli_eval},
    {NULL, NULL, NULL},
};

static void print_help(FILE *f)
{
    fputs("stex - a CPU reference emulator of WebGPU storage textures\n\n"
          "usage: stex COMMAND [OPTIONS]\n\ncommands:\n", f);
    for (const cli_command *c = cli_commands; c->name; c++)
        fprintf(f, "  %-10s %s\n", c->name, c->summary);
    fputs("\n`stex COMMAND --help` shows each command's options and examples.\n", f);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_help(stderr);
        return CLI_USAGE;
    }
    if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        print_help(stdout);
        return CLI_OK;
    }
    for (const cli_command *c = cli_commands; c->name; c++)
        if (!strcmp(argv[1], c->name))
            return c->run(argc - 1, argv + 1);
    fprintf(stderr, "stex: unknown command '%s'; the commands are:", argv[1]);
    for (const cli_command *c = cli_commands; c->name; c++)
        fprintf(stderr, " %s", c->name);
    fputs("\n", stderr);
    return CLI_USAGE;
}
