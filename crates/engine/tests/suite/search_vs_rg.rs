//! Grep and Glob against ripgrep and fd on a fixture tree: for the same arguments the tools find exactly what `rg`
//! and `fdfind` find. (Skipped, loudly, where those programs are not installed.)
