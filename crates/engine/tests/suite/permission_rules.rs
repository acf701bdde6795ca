//! Rule grammar (docs/permissions.md §2): which rules are valid in which list, and what they match.

use tandem_engine::permission::{
    BashPattern, RuleBehavior, Specifier, ToolPattern, domain_matches, parse_rule, url_host,
};

#[test]
fn validity_by_list() {
    use RuleBehavior::*;
    let rows: &[(&str, RuleBehavior, bool)] = &[
        ("Bash", Allow, true),
        ("Bash(*)", Allow, true),
        ("Bash()", Deny, true),
        ("Bash(npm test *)", Allow, true),
        ("Bash(npm test", Allow, false),
        ("Bash npm)", Deny, false),
        ("(x)", Deny, false),
        ("*", Deny, true),
        ("*", Ask, true),
        ("*", Allow, false),
        ("mcp__*", Deny, true),
        ("mcp__*", Allow, false),
        ("mcp__git*", Allow, false),
        ("mcp__github__*", Allow, true),
        ("mcp__github__get_*", Allow, true),
        ("mcp__github", Allow, true),
        ("mcp__", Deny, false),
        ("Bash*", Deny, true),
        ("Agent(model:opus)", Deny, true),
        ("Agent(model:opus)", Ask, true),
        ("Agent(model:opus)", Allow, false),
        ("Agent(Explore)", Allow, true),
        ("Task(Explore)", Deny, true),
        ("Bash(command:rm *)", Deny, false),
        ("Read(file_path:/x)", Deny, false),
        ("Grep(path:/x)", Deny, false),
        ("NotebookEdit(notebook_path:x)", Deny, false),
        ("WebFetch(url:https://x)", Deny, false),
        ("WebFetch(domain:example.com)", Allow, true),
        ("WebFetch(example.com)", Allow, false),
        ("WebBrowser(domain:example.com)", Allow, true),
        ("WebBrowser(example.com)", Allow, false),
        ("WebBrowser(action:click)", Deny, true),
        ("WebBrowser(action:click)", Allow, false),
        ("WebBrowser(url:https://x)", Deny, false),
        ("Bash(run_in_background:true)", Deny, true),
        ("mcp__s__t(force:true)", Deny, true),
        ("mcp__s__t(force:true)", Allow, false),
        ("mcp__s__t(anything)", Deny, false),
        ("Read(src/**)", Allow, true),
        ("Edit(//etc/**)", Deny, true),
        ("WebSearch(foo)", Deny, false),
    ];
    for (text, b, valid) in rows {
        assert_eq!(
            parse_rule(text, *b).is_ok(),
            *valid,
            "{text} in {b:?}: {:?}",
            parse_rule(text, *b).err()
        );
    }
    let unknown = parse_rule("Frobnicate", Deny).expect("parses");
    assert!(unknown.warning.is_some());
    assert_eq!(
        parse_rule("Task", Deny).expect("ok").tool,
        ToolPattern::Exact("Agent".into())
    );
    assert!(matches!(
        parse_rule("Bash(*)", Allow).expect("ok").spec,
        Specifier::Any
    ));
}

#[test]
fn tool_patterns() {
    let m = |rule: &str, tool: &str| {
        parse_rule(rule, RuleBehavior::Deny)
            .expect("valid")
            .tool
            .matches(tool)
    };
    assert!(m("mcp__github", "mcp__github__x"));
    assert!(m("mcp__github", "mcp__github"));
    assert!(!m("mcp__github", "mcp__github2__x"));
    assert!(m("mcp__github__*", "mcp__github__x"));
    assert!(!m("mcp__github__*", "mcp__gitlab__x"));
    assert!(m("mcp__*", "mcp__a__b"));
    assert!(!m("mcp__*", "Bash"));
    assert!(m("*", "Bash"));
    assert!(m("Bash", "Bash") && !m("Bash", "BashOutput"));
}

#[test]
fn bash_patterns() {
    let rows: &[(&str, &str, bool)] = &[
        ("ls *", "ls", true),
        ("ls *", "ls -la", true),
        ("ls *", "lsof", false),
        ("ls*", "lsof", true),
        ("ls:*", "ls -la", true),
        ("ls:*", "lsof", false),
        ("a:b", "a:b", true),
        ("a:b *", "a:b c", true),
        ("git * main", "git push origin main", true),
        ("git * main", "git push origin main2", false),
        ("* --version", "node --version", true),
        ("npm test", "npm test", true),
        ("npm test", "npm test x", false),
        ("echo \\*", "echo *", true),
        ("echo \\*", "echo x", false),
        ("*", "anything at all", true),
        ("a * b * c", "a 1 b 2 c", true),
        ("a * b * c", "a 1 c 2 b", false),
    ];
    for (pattern, command, expected) in rows {
        assert_eq!(
            BashPattern::parse(pattern).matches(command),
            *expected,
            "{pattern} vs {command}"
        );
    }
    assert!(BashPattern::parse("npm test").is_exact());
    assert!(!BashPattern::parse("npm test *").is_exact());
}

#[test]
fn domains() {
    let rows: &[(&str, &str, bool)] = &[
        ("example.com", "example.com", true),
        ("example.com", "www.example.com", false),
        ("*.example.com", "a.example.com", true),
        ("*.example.com", "a.b.example.com", true),
        ("*.example.com", "example.com", false),
        ("*.example.com", "badexample.com", false),
        ("api.*.com", "api.x.com", true),
        ("api.*.com", "api.x.y.com", false),
        ("*", "anything.org", true),
    ];
    for (pattern, host, expected) in rows {
        assert_eq!(
            domain_matches(pattern, host),
            *expected,
            "{pattern} vs {host}"
        );
    }
    assert_eq!(
        url_host("https://User@EXAMPLE.com.:443/x?y").as_deref(),
        Some("example.com")
    );
    assert_eq!(url_host("http://[::1]:8080/").as_deref(), Some("::1"));
    assert_eq!(url_host("https:///nohost"), None);
}

#[test]
fn every_tool_a_session_can_offer_is_a_tool_rules_may_name() {
    // Every switch on, as `tandem permissions check` builds it: a rule naming any of these tools must not be reported
    // as naming an unknown tool.
    let project = tempfile::tempdir().expect("project");
    let unknown: Vec<String> = tandem_engine::registry::checking_tools(project.path(), None)
        .iter()
        .map(|tool| tool.name().to_string())
        .filter(|name| !tandem_engine::permission::is_known_tool(name))
        .collect();
    assert!(unknown.is_empty(), "not known to the rules: {unknown:?}");
}
