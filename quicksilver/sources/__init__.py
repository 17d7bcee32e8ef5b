"""Where tasks come from: the raw snapshot format and the sources that write it."""
