/* stex/kernels.h - (being written) */
#ifndef STEX_KERNELS_H
#define STEX_KERNELS_H
#endif
