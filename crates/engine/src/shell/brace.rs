//! Brace expansion (`{a,b}`, `{1..3}`, `x{a,{b,c}}y`) over a word whose characters are marked quoted or not, giving
//! the words bash would produce, in bash's order, up to a cap.

/// One character of a word after quote removal: `Plain` was unquoted (it takes part in brace, tilde and glob
/// expansion), `Quoted` was quoted or escaped, `Opaque` belongs to an expansion only known when the command runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    Plain,
    Quoted,
    Opaque,
}

/// A word as marked characters.
pub type Marked = Vec<(char, Mark)>;

/// Most words one word may expand to before the analysis gives up on it.
pub const MAX_BRACE_WORDS: usize = 256;

/// The words `word` expands to, in order; `None` when there would be more than [`MAX_BRACE_WORDS`]. A word with no
/// brace expansion gives itself. Empty unquoted results are dropped, as bash drops them.
pub fn expand(word: &[(char, Mark)]) -> Option<Vec<Marked>> {
    let mut out = Vec::new();
    expand_into(word, &mut out)?;
    let had_quotes = word.iter().any(|(_, m)| *m != Mark::Plain);
    if out.len() > 1 || !had_quotes {
        out.retain(|w| !w.is_empty());
    }
    Some(out)
}

fn expand_into(word: &[(char, Mark)], out: &mut Vec<Marked>) -> Option<()> {
    let Some((open, close, alternatives)) = first_brace(word) else {
        out.push(word.to_vec());
        return Some(());
    };
    for alt in alternatives {
        let mut next: Marked = word[..open].to_vec();
        next.extend(alt);
        next.extend_from_slice(&word[close + 1..]);
        expand_into(&next, out)?;
        if out.len() > MAX_BRACE_WORDS {
            return None;
        }
    }
    Some(())
}

fn plain(word: &[(char, Mark)], i: usize, c: char) -> bool {
    word.get(i) == Some(&(c, Mark::Plain))
}

/// The first `{` that opens a brace expansion: its index, its matching `}` and the alternatives it stands for.
fn first_brace(word: &[(char, Mark)]) -> Option<(usize, usize, Vec<Marked>)> {
    let mut i = 0;
    while i < word.len() {
        if plain(word, i, '{')
            && !(i > 0 && plain(word, i - 1, '$'))
            && let Some((close, alternatives)) = brace_at(word, i)
        {
            return Some((i, close, alternatives));
        }
        i += 1;
    }
    None
}

/// The brace expression opening at `open`, if it is one: its closing index and its alternatives.
fn brace_at(word: &[(char, Mark)], open: usize) -> Option<(usize, Vec<Marked>)> {
    let mut depth = 0usize;
    let mut commas = Vec::new();
    let mut close = None;
    for i in open..word.len() {
        if word[i].1 != Mark::Plain {
            continue;
        }
        match word[i].0 {
            '{' if !(i > 0 && plain(word, i - 1, '$')) => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(i);
                    break;
                }
            }
            ',' if depth == 1 => commas.push(i),
            _ => {}
        }
    }
    let close = close?;
    if !commas.is_empty() {
        let mut alternatives = Vec::new();
        let mut from = open + 1;
        for at in commas.into_iter().chain(std::iter::once(close)) {
            alternatives.push(word[from..at].to_vec());
            from = at + 1;
        }
        return Some((close, alternatives));
    }
    let inner = &word[open + 1..close];
    if inner.iter().any(|(_, m)| *m != Mark::Plain) {
        return None;
    }
    let text: String = inner.iter().map(|(c, _)| c).collect();
    sequence(&text).map(|words| {
        let words = words
            .into_iter()
            .map(|w| w.chars().map(|c| (c, Mark::Plain)).collect())
            .collect();
        (close, words)
    })
}

/// `1..5`, `5..1`, `01..10`, `1..10..3`, `a..e`: the words of a sequence expression.
fn sequence(text: &str) -> Option<Vec<String>> {
    let pieces: Vec<&str> = text.split("..").collect();
    if !(2..=3).contains(&pieces.len()) {
        return None;
    }
    let step: i64 = match pieces.get(2) {
        Some(s) => s.parse().ok()?,
        None => 1,
    };
    let step = step.unsigned_abs().max(1) as i64;
    let (a, b) = (pieces[0], pieces[1]);
    if let (Ok(x), Ok(y)) = (a.parse::<i64>(), b.parse::<i64>()) {
        let padded = |s: &str| {
            let digits = s.trim_start_matches('-');
            digits.len() > 1 && digits.starts_with('0')
        };
        let width = if padded(a) || padded(b) {
            a.len().max(b.len())
        } else {
            0
        };
        let count = (x - y).unsigned_abs() / step as u64 + 1;
        if count > super::brace::MAX_BRACE_WORDS as u64 {
            return Some(vec![String::new(); super::brace::MAX_BRACE_WORDS + 1]);
        }
        let dir = if y >= x { step } else { -step };
        let mut out = Vec::new();
        let mut n = x;
        for _ in 0..count {
            out.push(if width > 0 {
                if n < 0 {
                    format!("-{:0w$}", -n, w = width - 1)
                } else {
                    format!("{n:0width$}")
                }
            } else {
                n.to_string()
            });
            n += dir;
        }
        return Some(out);
    }
    let (mut ca, mut cb) = (a.chars(), b.chars());
    let (Some(x), None, Some(y), None) = (ca.next(), ca.next(), cb.next(), cb.next()) else {
        return None;
    };
    if !x.is_ascii_alphabetic() || !y.is_ascii_alphabetic() {
        return None;
    }
    let (x, y) = (x as i64, y as i64);
    let dir = if y >= x { step } else { -step };
    let mut out = Vec::new();
    let mut n = x;
    while (dir > 0 && n <= y) || (dir < 0 && n >= y) {
        out.push(char::from_u32(n as u32)?.to_string());
        n += dir;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        let marked: Marked = text.chars().map(|c| (c, Mark::Plain)).collect();
        expand(&marked)
            .expect("under the cap")
            .into_iter()
            .map(|w| w.into_iter().map(|(c, _)| c).collect())
            .collect()
    }

    /// The words bash itself produces for `text`, when bash is installed.
    fn bash_words(text: &str) -> Option<Vec<String>> {
        let out = std::process::Command::new("bash")
            .arg("-c")
            .arg(format!("printf '%s\\n' {text}"))
            .output()
            .ok()?;
        let s = String::from_utf8(out.stdout).ok()?;
        Some(s.lines().map(str::to_string).collect())
    }

    #[test]
    fn brace_expansion_gives_the_words_bash_gives() {
        let cases = [
            "{a,b}",
            "{a,b}{c,d}",
            "x{1..3}",
            "{1..10..3}",
            "{a..c}",
            "{01..03}",
            "{a,{b,c}}",
            "{}",
            "{x}",
            "a{,b}",
            "{a,b,}",
            "{a..}",
            "{1..a}",
            "{-1..1}",
            "{z..w}",
            "{a,b}c{d..f}",
            "{x}{a,b}",
            "{rm,-rf,x}",
            "{.git,y}",
            "/etc/{passwd,shadow}",
            "{5..1..2}",
            "{a,b}}",
            "{{a,b}",
        ];
        for case in cases {
            let ours = words(case);
            if let Some(theirs) = bash_words(case) {
                assert_eq!(ours, theirs, "{case}");
            }
        }
        assert_eq!(words("{.git,y}"), vec![".git", "y"]);
        assert_eq!(words("{rm,-rf,x}"), vec!["rm", "-rf", "x"]);
    }

    #[test]
    fn quoted_braces_do_not_expand_and_huge_expansions_give_up() {
        let marked: Marked = "{a,b}".chars().map(|c| (c, Mark::Quoted)).collect();
        assert_eq!(expand(&marked).map(|w| w.len()), Some(1));
        let big: Marked = "{1..9}{1..9}{1..9}"
            .chars()
            .map(|c| (c, Mark::Plain))
            .collect();
        assert!(expand(&big).is_none());
        let seq: Marked = "{1..100000}".chars().map(|c| (c, Mark::Plain)).collect();
        assert!(expand(&seq).is_none());
    }
}
