//! `${VAR}` and `${VAR:-default}` in server configurations, as the command-line agent expands them.

/// Expands the variables in `text` with `lookup`. `Err` names the first variable that is unset and has no default.
pub fn expand(text: &str, lookup: &dyn Fn(&str) -> Option<String>) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else {
            // An unclosed `${` is kept as written.
            out.push_str(&rest[start..]);
            return Ok(out);
        };
        let inner = &after[..end];
        let (name, default) = match inner.split_once(":-") {
            Some((name, default)) => (name, Some(default)),
            None => (inner, None),
        };
        match lookup(name) {
            Some(value) => out.push_str(&value),
            None => match default {
                Some(default) => out.push_str(default),
                None => return Err(name.to_string()),
            },
        }
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(name: &str) -> Option<String> {
        match name {
            "HOME" => Some("/home/u".into()),
            "EMPTY" => Some(String::new()),
            _ => None,
        }
    }

    #[test]
    fn variables_and_defaults_expand() {
        let cases = [
            ("plain", Ok("plain")),
            ("${HOME}/bin", Ok("/home/u/bin")),
            ("a${HOME}b${HOME}c", Ok("a/home/ub/home/uc")),
            ("${MISSING:-fallback}", Ok("fallback")),
            ("${HOME:-fallback}", Ok("/home/u")),
            ("${EMPTY:-x}", Ok("")),
            ("${MISSING:-}", Ok("")),
            ("${MISSING}", Err("MISSING")),
            ("x ${NOPE} ${HOME}", Err("NOPE")),
            ("unclosed ${HOME", Ok("unclosed ${HOME")),
            ("$HOME stays", Ok("$HOME stays")),
        ];
        for (input, want) in cases {
            let got = expand(input, &vars);
            assert_eq!(
                got,
                want.map(str::to_string).map_err(str::to_string),
                "{input}"
            );
        }
    }
}
