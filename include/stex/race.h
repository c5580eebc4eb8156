/* stex/race.h - (being written) */
#ifndef STEX_RACE_H
#define STEX_RACE_H
#endif
