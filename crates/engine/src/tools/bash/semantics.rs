//! What a command's exit code means, read per program as a developer reads it: `grep` finding nothing, `diff`
//! finding differences or `test` being false exit 1 and answer the question; only a higher code is a failure. The
//! program that decides is the last command of the command line ([`crate::shell::deciding_program`]); a program
//! not listed here fails on any non-zero code.

use crate::shell::deciding_program;

/// How an exit code reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExitReading {
    /// The command succeeded (code 0).
    Success,
    /// A non-zero code that answers the question rather than reports a failure (`grep`: nothing matched).
    Answer(&'static str),
    /// The command failed.
    Failure,
}

/// What `code` means for `command`.
pub fn read_exit(command: &str, code: u32) -> ExitReading {
    if code == 0 {
        return ExitReading::Success;
    }
    let Some(program) = deciding_program(command) else {
        return ExitReading::Failure;
    };
    match (answer_for_one(&program), code) {
        (Some(meaning), 1) => ExitReading::Answer(meaning),
        _ => ExitReading::Failure,
    }
}

/// What exit code 1 means for the programs whose code 1 is an answer (their code 2 and above is trouble).
fn answer_for_one(program: &str) -> Option<&'static str> {
    Some(match program {
        "grep" | "egrep" | "fgrep" | "rg" => "no matches found",
        "diff" => "the files differ",
        "cmp" => "the files differ",
        "test" | "[" | "[[" => "the condition is false",
        "find" => "some entries could not be read",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::{ExitReading, read_exit};

    #[test]
    fn exit_codes_read_per_program() {
        use ExitReading::{Answer, Failure, Success};
        let table: &[(&str, u32, ExitReading)] = &[
            ("grep -r nothing .", 0, Success),
            ("grep -r nothing .", 1, Answer("no matches found")),
            ("grep -r nothing .", 2, Failure),
            ("rg nothing", 1, Answer("no matches found")),
            ("cd src && grep -rn TODO .", 1, Answer("no matches found")),
            ("grep x f | wc -l", 1, Failure),
            ("cat f | grep x", 1, Answer("no matches found")),
            ("diff a b", 1, Answer("the files differ")),
            ("diff a b", 2, Failure),
            ("cmp a b", 1, Answer("the files differ")),
            ("test -f missing", 1, Answer("the condition is false")),
            ("[ -d missing ]", 1, Answer("the condition is false")),
            ("[[ -d missing ]]", 1, Answer("the condition is false")),
            ("test", 2, Failure),
            (
                "find / -name x",
                1,
                Answer("some entries could not be read"),
            ),
            ("cat missing.txt", 1, Failure),
            ("make", 2, Failure),
            ("grep x f && echo found", 1, Failure),
            ("false", 1, Failure),
            ("if grep -q x f; then echo y; fi", 1, Failure),
            ("timeout 5 grep x f", 124, Failure),
        ];
        for (command, code, expected) in table {
            assert_eq!(
                read_exit(command, *code),
                *expected,
                "{command:?} exiting {code}"
            );
        }
    }
}
