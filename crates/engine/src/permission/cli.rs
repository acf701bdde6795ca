//! `tandem permissions check` / `list`: the logic behind the command line.
