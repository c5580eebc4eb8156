/*
 * stex/api.h - STEX_API marks what libstex exports.
 *
 * libstex is built with hidden symbol visibility, so only the declarations in
 * include/stex/ that carry STEX_API are visible to programs linking the shared
 * library; helpers shared between source files stay inside it.  The exports
 * test (tests/api/) checks that the library exports exactly the STEX_API
 * declarations, every one named stex_.
 */
#ifndef STEX_API_H
#define STEX_API_H

#if defined(__GNUC__) || defined(__clang__)
#define STEX_API __attribute__((visibility("default")))
#else
#define STEX_API
#endif

#endif
