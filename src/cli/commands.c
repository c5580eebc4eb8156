/* The list of subcommands, shared by main() and the tests of the tables. */
#include "cli/cli.h"

/* Add a subcommand here and in cli.h; keep the list in tour order. */
const cli_command cli_commands[] = {
    {&cli_formats_spec, "storage-texture formats and access modes under a feature set", cli_formats},
    {&cli_store_spec, "the bytes textureStore writes for a value; what textureLoad reads", cli_store},
    {&cli_validate_spec, "validate a storageTexture layout entry: ok, or the error, its rule", cli_validate},
    {&cli_layout_spec, "tiled texel addresses; cache lines a 3x3 stencil touches", cli_layout},
    {&cli_run_spec, "run a kernel, a run file or a .wgsl; write its outputs", cli_run},
    {&cli_race_spec, "run under many schedules: distinct outputs, races, pictures, HTML", cli_race},
    {&cli_compare_spec, "compare a readback with a golden (exact, ulp:N, allowed)", cli_compare},
    {&cli_demo_spec, "a few seconds' tour: formats, conversions, validation, a race", cli_demo},
    {&cli_eval_spec, "a WGSL expression as each profile computes it (bits and value)", cli_eval},
    {&cli_check_spec, "check WGSL files: file:line:col diagnostics; exit 1 when invalid", cli_check},
    {&cli_reflect_spec, "a WGSL module's entry points, workgroup sizes, bindings, overrides", cli_reflect},
    {NULL, NULL, NULL},
};
