/* Fixture: a format-layer header. */
