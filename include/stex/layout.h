/* stex/layout.h - (being written) */
#ifndef STEX_LAYOUT_H
#define STEX_LAYOUT_H
#endif
