/* Internal: WGSL spelling of a binding's type, for error messages. */
#ifndef STEX_SHADER_DESCRIBE_H
#define STEX_SHADER_DESCRIBE_H

#include <stddef.h>

#include "shader/exec.h"

/* "vec4<f32>" element names: "f32", "u32", "i32". */
const char *exec_scalar_name(stex_scalar_type t);
/* "texture_storage_2d<r32float, read_write>", "var<storage, read_write>", "nothing" ... */
void exec_describe_binding(const exec_binding *b, char *buf, size_t size);

#endif
