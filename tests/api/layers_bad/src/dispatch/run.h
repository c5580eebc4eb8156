/* Fixture: a dispatch-layer header (see ../format/table.c). */
#include "format/table.h"
