//! Parsing with tree-sitter-bash: every simple command of a script, however deeply nested, with its assignments,
//! words and redirections.

use std::cell::RefCell;

use tree_sitter::{Node, Parser};

use super::word::{Word, eval_word, eval_words, node_text};

/// A leading `NAME=value` of a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assignment {
    pub name: String,
    pub raw: String,
    /// The value given, evaluated like a word (`Word::value` is `None` when only known when the command runs).
    pub value: Word,
}

/// What a redirection does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RedirectKind {
    /// `>`, `>>`, `>|`, `&>`, `&>>`, `>&file`, `<>`: the target is written.
    Write,
    /// `<`: the target is read.
    Read,
    /// `>&2`, `<&0`, `>&-`: file descriptors are duplicated or closed; no file is touched.
    Duplicate,
    /// `<<` and `<<<`: text fed to standard input.
    Input,
}

/// One redirection of a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    pub op: String,
    pub kind: RedirectKind,
    pub target: Option<Word>,
}

/// One simple command as written: assignments, words (program first) and redirections.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SimpleCommand {
    pub assignments: Vec<Assignment>,
    pub words: Vec<Word>,
    pub redirects: Vec<Redirect>,
    /// How deeply nested the command is (0: top level; inside `$(...)`, `(...)`, loops, ...: more).
    pub depth: u32,
    /// The command is a builtin keyword form (`export`, `declare`, `local`, `unset`, `[[ ]]`) rather than a program.
    pub keyword: bool,
}

/// The simple commands of a script and whether the parse was clean.
#[derive(Debug, Clone, Default)]
pub struct ParsedScript {
    pub commands: Vec<SimpleCommand>,
    /// Set when tree-sitter reported a syntax error or something the walk does not understand.
    pub error: Option<String>,
}

thread_local! {
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// Parses `script` into a tree; `None` when the parser cannot be set up or gives up.
pub fn parse_tree(script: &str) -> Option<tree_sitter::Tree> {
    PARSER.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            let mut parser = Parser::new();
            parser
                .set_language(&tree_sitter_bash::LANGUAGE.into())
                .ok()?;
            *slot = Some(parser);
        }
        slot.as_mut()?.parse(script, None)
    })
}

/// Parses `script` and collects every simple command in it. Line continuations are joined first, as bash joins
/// them before it splits words; a control character bash would keep inside a word makes the script unanalysable.
pub fn parse_script(script: &str) -> ParsedScript {
    let mut out = ParsedScript::default();
    if script
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t')
    {
        out.error = Some(
            "the command holds a control character (such as a carriage return) that the shell reads differently"
                .into(),
        );
        return out;
    }
    let joined = join_continuations(script);
    let script = joined.as_deref().unwrap_or(script);
    let Some(tree) = parse_tree(script) else {
        out.error = Some("the shell parser failed".into());
        return out;
    };
    let root = tree.root_node();
    if root.has_error() {
        out.error = Some("the command has a syntax error".into());
    }
    let mut walker = Walker {
        src: script.as_bytes(),
        out: &mut out,
    };
    walker.visit(root, 0);
    out
}

/// `script` with every backslash-newline outside single quotes, here-document bodies and comments removed, when it
/// has any (bash removes them before it splits words, so `r\⏎m` is `rm`).
fn join_continuations(script: &str) -> Option<String> {
    if !script.contains("\\\n") {
        return None;
    }
    let tree = parse_tree(script)?;
    let mut keep: Vec<std::ops::Range<usize>> = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        if matches!(
            node.kind(),
            "raw_string" | "ansi_c_string" | "heredoc_body" | "comment"
        ) {
            keep.push(node.byte_range());
            continue;
        }
        let mut cursor = node.walk();
        stack.extend(node.children(&mut cursor));
    }
    let bytes = script.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' && !keep.iter().any(|r| r.contains(&i)) {
            if bytes.get(i + 1) == Some(&b'\n') {
                i += 2;
                continue;
            }
            // An escaped character (an escaped backslash included) is kept as it is.
            out.push(bytes[i]);
            if let Some(&next) = bytes.get(i + 1) {
                out.push(next);
            }
            i += 2;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).ok()
}

struct Walker<'s, 'o> {
    src: &'s [u8],
    out: &'o mut ParsedScript,
}

impl Walker<'_, '_> {
    fn fail(&mut self, why: &str) {
        if self.out.error.is_none() {
            self.out.error = Some(why.to_string());
        }
    }

    fn visit_children(&mut self, node: Node<'_>, depth: u32) {
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            self.visit(child, depth);
        }
    }

    fn visit(&mut self, node: Node<'_>, depth: u32) {
        match node.kind() {
            "command" => self.command(node, depth, Vec::new()),
            "redirected_statement" => self.redirected(node, depth),
            "variable_assignment" => {
                let cmd = SimpleCommand {
                    assignments: vec![self.assignment(node)],
                    depth,
                    ..SimpleCommand::default()
                };
                self.out.commands.push(cmd);
                self.scan_value(node, depth);
            }
            "declaration_command" | "unset_command" => self.keyword_command(node, depth),
            "test_command" => {
                self.out.commands.push(SimpleCommand {
                    words: vec![Word::literal("[[")],
                    depth,
                    keyword: true,
                    ..SimpleCommand::default()
                });
                self.visit_children(node, depth + 1);
            }
            "command_substitution" | "process_substitution" | "subshell" => {
                self.visit_children(node, depth + 1)
            }
            // A redirection of a compound command or a function body: it belongs to no single command.
            "file_redirect" | "heredoc_redirect" | "herestring_redirect" => {
                let redirects = self.redirect(node);
                self.out.commands.push(SimpleCommand {
                    redirects,
                    depth,
                    keyword: true,
                    ..SimpleCommand::default()
                });
                self.visit_redirect_inside(node, depth + 1);
            }
            "ERROR" => {
                self.fail("the command has a syntax error");
                self.visit_children(node, depth);
            }
            "comment" | "heredoc_start" | "heredoc_end" | "heredoc_content" | "string_content"
            | "raw_string" | "ansi_c_string" | "word" | "variable_name" | "file_descriptor" => {}
            "expansion" => {
                let text = node_text(node, self.src);
                if text.contains("@P") {
                    self.fail("a prompt expansion (${var@P}) can run commands");
                }
                if is_indirect(text) {
                    self.fail(
                        "an indirect expansion (${!name}) evaluates the text of another variable, which can run commands",
                    );
                }
                self.visit_children(node, depth);
            }
            "function_definition"
            | "if_statement"
            | "while_statement"
            | "for_statement"
            | "c_style_for_statement"
            | "case_statement"
            | "case_item"
            | "do_group"
            | "else_clause"
            | "elif_clause"
            | "compound_statement" => self.visit_children(node, depth + 1),
            _ => {
                if node.is_missing() {
                    self.fail("the command is incomplete");
                }
                self.visit_children(node, depth)
            }
        }
    }

    fn assignment(&mut self, node: Node<'_>) -> Assignment {
        // Text that would run as a command if the variable is ever evaluated (`$((x))` evaluates `a[$(cmd)]`).
        if let Some(value) = node.child_by_field_name("value")
            && let Some(text) = eval_word(value, self.src).value
            && (text.contains("$(") || text.contains('`'))
        {
            self.fail(
                "a variable is given text that runs a command when the variable is evaluated",
            );
        }
        let name = node
            .child_by_field_name("name")
            .map(|n| node_text(n, self.src))
            .unwrap_or("");
        // `a[i]=x` names the array `a`.
        let name = name.split('[').next().unwrap_or(name).to_string();
        let value = node
            .child_by_field_name("value")
            .map(|v| eval_word(v, self.src))
            .unwrap_or_else(|| Word::literal(""));
        Assignment {
            name,
            raw: node_text(node, self.src).to_string(),
            value,
        }
    }

    fn scan_value(&mut self, node: Node<'_>, depth: u32) {
        if let Some(value) = node.child_by_field_name("value") {
            self.visit(value, depth + 1);
        }
    }

    fn command(&mut self, node: Node<'_>, depth: u32, redirects: Vec<Redirect>) {
        let mut cmd = SimpleCommand {
            depth,
            redirects,
            ..SimpleCommand::default()
        };
        self.check_gaps(node);
        let mut nested: Vec<Node<'_>> = Vec::new();
        let mut redirect_nodes: Vec<Node<'_>> = Vec::new();
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            if !child.is_named() {
                // `$"..."` is a translated string, the same text; any other loose token is not understood.
                let translated = node_text(child, self.src) == "$"
                    && child.next_sibling().is_some_and(|n| n.kind() == "string");
                if !translated {
                    self.fail("a part of the command is not understood");
                }
                continue;
            }
            match child.kind() {
                "variable_assignment" => {
                    cmd.assignments.push(self.assignment(child));
                    if let Some(v) = child.child_by_field_name("value") {
                        nested.push(v);
                    }
                }
                "command_name" => {
                    if let Some(inner) = child.named_child(0) {
                        cmd.words.extend(eval_words(inner, self.src));
                        nested.push(inner);
                    }
                }
                "file_redirect" | "herestring_redirect" | "heredoc_redirect" => {
                    cmd.redirects.extend(self.redirect(child));
                    redirect_nodes.push(child);
                }
                "comment" => {}
                "subshell" => {
                    self.fail("a subshell in a command position");
                    nested.push(child);
                }
                _ => {
                    cmd.words.extend(eval_words(child, self.src));
                    nested.push(child);
                }
            }
        }
        self.out.commands.push(cmd);
        for n in nested {
            self.visit(n, depth + 1);
        }
        for n in redirect_nodes {
            self.visit_redirect_inside(n, depth + 1);
        }
    }

    /// Text of `node` between its children that no child covers (tree-sitter skips some tokens, such as the `-` of
    /// `python3 - <<EOF`): the command is then not what the analysis sees.
    fn check_gaps(&mut self, node: Node<'_>) {
        let mut at = node.start_byte();
        let mut cursor = node.walk();
        let mut gap = false;
        let mut previous: Option<Node<'_>> = None;
        for child in node.children(&mut cursor) {
            gap |= !self.blank(at, child.start_byte());
            // Two words with nothing between them are one word to bash (`'q s'\$x`), whatever the parser made.
            if let Some(prev) = previous
                && prev.end_byte() == child.start_byte()
                && is_word_like(prev)
                && is_word_like(child)
            {
                gap = true;
            }
            at = at.max(child.end_byte());
            previous = Some(child);
        }
        gap |= !self.blank(at, node.end_byte());
        if gap {
            self.fail("a part of the command is not understood");
        }
    }

    fn blank(&self, from: usize, to: usize) -> bool {
        self.src
            .get(from..to)
            .and_then(|b| std::str::from_utf8(b).ok())
            .is_none_or(|t| t.replace("\\\n", "").trim().is_empty())
    }

    /// The commands inside a redirection: substitutions in its target, and what follows a here-document's start on
    /// its line (`cat <<EOF | sh`), which tree-sitter places inside the redirection.
    fn visit_redirect_inside(&mut self, node: Node<'_>, depth: u32) {
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            match child.kind() {
                // Redirections after a here-document's start are the command's own (taken by `redirect`).
                "file_redirect" | "herestring_redirect" => self.visit_redirect_inside(child, depth),
                "heredoc_start" | "heredoc_end" | "file_descriptor" | "word" => {}
                _ => self.visit(child, depth),
            }
        }
    }

    fn keyword_command(&mut self, node: Node<'_>, depth: u32) {
        let mut cmd = SimpleCommand {
            depth,
            keyword: true,
            ..SimpleCommand::default()
        };
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            if !child.is_named() {
                let text = node_text(child, self.src);
                if cmd.words.is_empty() && !text.trim().is_empty() {
                    cmd.words.push(Word::literal(text));
                }
                continue;
            }
            match child.kind() {
                "variable_assignment" => {
                    let a = self.assignment(child);
                    cmd.words.push(Word::literal(&a.raw));
                    cmd.assignments.push(a);
                }
                _ => cmd.words.extend(eval_words(child, self.src)),
            }
        }
        self.out.commands.push(cmd);
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            if child.kind() == "variable_assignment" {
                self.scan_value(child, depth);
            } else {
                self.visit(child, depth + 1);
            }
        }
    }

    fn redirected(&mut self, node: Node<'_>, depth: u32) {
        self.check_gaps(node);
        let mut redirects = Vec::new();
        let mut extra: Vec<Node<'_>> = Vec::new();
        let mut cursor = node.walk();
        for child in node.children_by_field_name("redirect", &mut cursor) {
            redirects.extend(self.redirect(child));
            extra.push(child);
        }
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            if matches!(child.kind(), "herestring_redirect" | "heredoc_redirect")
                && !extra.iter().any(|e| e.id() == child.id())
            {
                redirects.extend(self.redirect(child));
                extra.push(child);
            }
        }
        match node.child_by_field_name("body") {
            Some(body) if body.kind() == "command" => self.command(body, depth, redirects),
            Some(body) => {
                // A compound statement with redirections: the redirections belong to no single command.
                self.out.commands.push(SimpleCommand {
                    redirects,
                    depth,
                    keyword: true,
                    ..SimpleCommand::default()
                });
                self.visit(body, depth);
            }
            None => self.out.commands.push(SimpleCommand {
                redirects,
                depth,
                keyword: true,
                ..SimpleCommand::default()
            }),
        }
        for n in extra {
            self.visit_redirect_inside(n, depth + 1);
        }
    }

    /// The redirections a redirection node stands for: itself, and for a here-document the redirections written
    /// after its start on the same line (`cat <<EOF > out.txt`).
    fn redirect(&mut self, node: Node<'_>) -> Vec<Redirect> {
        let mut op = String::new();
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            if !child.is_named() {
                let t = node_text(child, self.src);
                if t.contains('<') || t.contains('>') {
                    op = t.to_string();
                    break;
                }
            }
        }
        let target = match node.kind() {
            "file_redirect" => node
                .child_by_field_name("destination")
                .map(|d| eval_word(d, self.src)),
            _ => None,
        };
        let kind = match node.kind() {
            "heredoc_redirect" | "herestring_redirect" => RedirectKind::Input,
            _ => classify_redirect(&op, target.as_ref()),
        };
        if node.kind() == "file_redirect" && target.is_none() && !op.contains('&') {
            self.fail("a redirection without a target");
        }
        let mut out = vec![Redirect { op, kind, target }];
        if node.kind() == "heredoc_redirect" {
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                if matches!(child.kind(), "file_redirect" | "herestring_redirect") {
                    out.extend(self.redirect(child));
                }
            }
        }
        out
    }
}

fn classify_redirect(op: &str, target: Option<&Word>) -> RedirectKind {
    let target_text = target.map(|t| t.text()).unwrap_or("");
    let is_fd = !target_text.is_empty()
        && (target_text == "-"
            || target_text
                .trim_end_matches('-')
                .chars()
                .all(|c| c.is_ascii_digit()));
    if target.is_none() && op.contains('&') {
        return RedirectKind::Duplicate;
    }
    match op {
        "<" => RedirectKind::Read,
        "<&" | ">&" | "<&-" | ">&-" if is_fd => RedirectKind::Duplicate,
        "<&" => RedirectKind::Read,
        "<<" | "<<-" | "<<<" => RedirectKind::Input,
        _ => RedirectKind::Write,
    }
}

/// Whether a child of a command is (part of) a word: not a redirection, an assignment, a comment or a token.
fn is_word_like(node: Node<'_>) -> bool {
    node.is_named()
        && !matches!(
            node.kind(),
            "file_redirect"
                | "herestring_redirect"
                | "heredoc_redirect"
                | "variable_assignment"
                | "comment"
        )
}

/// Whether an expansion is indirect (`${!name}`, `${!name:-x}`, `${!name[1]}`): bash expands the variable the value
/// names, and an array subscript in that name (`a[$(cmd)]`) runs a command. Listing names or keys (`${!prefix*}`,
/// `${!prefix@}`, `${!array[@]}`, `${!array[*]}`) evaluates nothing.
fn is_indirect(text: &str) -> bool {
    let Some(inner) = text.strip_prefix("${!").and_then(|t| t.strip_suffix('}')) else {
        return false;
    };
    let name_end = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(inner.len());
    !matches!(&inner[name_end..], "*" | "@" | "[@]" | "[*]")
}
