//! Which program's exit status a command line ends with: the last command of the last statement, through `&&`,
//! `||` and pipes (a pipeline's status is its last command's), past wrappers such as `timeout` or `nice` that pass
//! the status on. Anything else at the end (a loop, a subshell, a function) names no program.

use tree_sitter::Node;

use super::parse::{parse_script, parse_tree};
use super::strip::wrapper_len;
use super::word::base_name;

/// The program whose exit status the whole of `script` ends with (`grep` for `cd src && grep -r x . | sort -u`
/// is `sort`; for `cd src && grep -r x .` it is `grep`), `[` or `[[` for a final test in brackets, or `None` when the last
/// statement is not a simple command or the script cannot be parsed.
pub fn deciding_program(script: &str) -> Option<String> {
    let tree = parse_tree(script)?;
    let root = tree.root_node();
    if root.has_error() {
        return None;
    }
    let mut node = last_statement(root)?;
    loop {
        match node.kind() {
            "list" | "pipeline" => node = last_statement(node)?,
            "redirected_statement" => node = node.child_by_field_name("body")?,
            // tree-sitter reads `[ … ]` and `[[ … ]]` alike.
            "test_command" => {
                let text = script.get(node.byte_range())?;
                let bracket = if text.starts_with("[[") { "[[" } else { "[" };
                return Some(bracket.to_string());
            }
            "command" => break,
            _ => return None,
        }
    }
    let text = script.get(node.byte_range())?;
    let parsed = parse_script(text);
    let command = parsed.commands.into_iter().find(|c| c.depth == 0)?;
    let words = &command.words;
    let mut start = 0;
    while words.get(start).and_then(|w| w.value.as_deref()) != Some("xargs")
        && let Some(n) = wrapper_len(&words[start..])
    {
        start += n;
    }
    let program = words.get(start)?.value.as_deref()?;
    Some(base_name(program).to_string())
}

/// The last named child of `node` that is not a comment.
fn last_statement(node: Node<'_>) -> Option<Node<'_>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|n| n.kind() != "comment")
        .last()
}

#[cfg(test)]
mod tests {
    use super::deciding_program;

    #[test]
    fn the_last_command_of_the_last_statement_decides() {
        let table: &[(&str, Option<&str>)] = &[
            ("grep -r nothing .", Some("grep")),
            ("cd src && grep -r x .", Some("grep")),
            ("grep -r x . | sort -u", Some("sort")),
            ("grep x f || true", Some("true")),
            ("echo a; diff a b", Some("diff")),
            ("diff a b > out.txt", Some("diff")),
            ("LC_ALL=C timeout 5 grep x f", Some("grep")),
            ("/usr/bin/cmp a b", Some("cmp")),
            ("[ -f x ]", Some("[")),
            ("test -d dir", Some("test")),
            ("[[ -f x ]]", Some("[[")),
            ("find . -name '*.rs' | xargs grep x", Some("xargs")),
            ("grep x f # look for x", Some("grep")),
            ("grep x f\n", Some("grep")),
            ("for f in *; do grep x $f; done", None),
            ("(grep x f)", None),
            ("if grep -q x f; then echo y; fi", None),
            ("grep 'x", None),
            ("$CMD x", None),
        ];
        for (script, expected) in table {
            assert_eq!(
                deciding_program(script).as_deref(),
                *expected,
                "for {script:?}"
            );
        }
    }
}
