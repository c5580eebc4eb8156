/* stex/io.h - (being written) */
#ifndef STEX_IO_H
#define STEX_IO_H
#endif
