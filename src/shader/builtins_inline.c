/* The exported builtins of stex/shader.h whose bodies are the inline fast
 * path (shader/fast.h): kernels outside libstex call these, kernels inside
 * it get the same code inlined.  The parentheses around each name keep the
 * fast.h macro of that name from expanding. */
#include "shader/fast.h"

void (stex_textureStore_1d)(const stex_invocation *inv, uint32_t binding, int64_t x, stex_value v)
{ stex_textureStore_1d(inv, binding, x, v); }
void (stex_textureStore_2d)(const stex_invocation *inv, uint32_t binding, int64_t x, int64_t y,
                            stex_value v)
{ stex_textureStore_2d(inv, binding, x, y, v); }
void (stex_textureStore_2d_array)(const stex_invocation *inv, uint32_t binding, int64_t x,
                                  int64_t y, int64_t layer, stex_value v)
{ stex_textureStore_2d_array(inv, binding, x, y, layer, v); }
void (stex_textureStore_3d)(const stex_invocation *inv, uint32_t binding, int64_t x, int64_t y,
                            int64_t z, stex_value v)
{ stex_textureStore_3d(inv, binding, x, y, z, v); }

stex_value (stex_textureLoad_1d)(const stex_invocation *inv, uint32_t binding, int64_t x)
{ return stex_textureLoad_1d(inv, binding, x); }
stex_value (stex_textureLoad_2d)(const stex_invocation *inv, uint32_t binding, int64_t x, int64_t y)
{ return stex_textureLoad_2d(inv, binding, x, y); }
stex_value (stex_textureLoad_2d_array)(const stex_invocation *inv, uint32_t binding, int64_t x,
                                       int64_t y, int64_t layer)
{ return stex_textureLoad_2d_array(inv, binding, x, y, layer); }
stex_value (stex_textureLoad_3d)(const stex_invocation *inv, uint32_t binding, int64_t x,
                                 int64_t y, int64_t z)
{ return stex_textureLoad_3d(inv, binding, x, y, z); }

stex_uvec2 (stex_textureDimensions_2d)(const stex_invocation *inv, uint32_t binding)
{ return stex_textureDimensions_2d(inv, binding); }
stex_vec4 (stex_textureLoad_level_2d)(const stex_invocation *inv, uint32_t binding, int64_t x,
                                      int64_t y, int64_t level)
{ return stex_textureLoad_level_2d(inv, binding, x, y, level); }

uint32_t (stex_buffer_load_u32)(const stex_invocation *inv, uint32_t binding, uint64_t index)
{ return stex_buffer_load_u32(inv, binding, index); }
float (stex_buffer_load_f32)(const stex_invocation *inv, uint32_t binding, uint64_t index)
{ return stex_buffer_load_f32(inv, binding, index); }
int32_t (stex_buffer_load_i32)(const stex_invocation *inv, uint32_t binding, uint64_t index)
{ return stex_buffer_load_i32(inv, binding, index); }
void (stex_buffer_store_u32)(const stex_invocation *inv, uint32_t binding, uint64_t index,
                             uint32_t v)
{ stex_buffer_store_u32(inv, binding, index, v); }
void (stex_buffer_store_f32)(const stex_invocation *inv, uint32_t binding, uint64_t index, float v)
{ stex_buffer_store_f32(inv, binding, index, v); }
void (stex_buffer_store_i32)(const stex_invocation *inv, uint32_t binding, uint64_t index,
                             int32_t v)
{ stex_buffer_store_i32(inv, binding, index, v); }

uint32_t (stex_invocation_pack4x8unorm)(const stex_invocation *inv, const float v[4])
{ return stex_invocation_pack4x8unorm(inv, v); }
void (stex_invocation_unpack4x8unorm)(const stex_invocation *inv, uint32_t w, float out[4])
{ stex_invocation_unpack4x8unorm(inv, w, out); }
