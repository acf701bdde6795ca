//! Tests of the command line: the real `tandem` binary (headless turns, tool calls, permissions, rewind, handing
//! the window over to the app), and the `permissions` logic called directly.

mod suite;
