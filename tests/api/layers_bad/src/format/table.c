/* A fixture for tools/check_layers.py: the format layer reaching up into
 * the dispatch layer, which the check must refuse. */
#include "dispatch/run.h"
