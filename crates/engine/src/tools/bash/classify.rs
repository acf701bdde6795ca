//! What a command is for scheduling and display: read-only (from the shell analysis shared with the permission
//! engine) and destructive (deletes or overwrites what cannot be brought back).

use crate::shell::{self, base_name};

/// Whether every part of `command` only searches, reads, lists or prints: such a command may run beside others
/// and folds in the transcript.
pub fn is_read_only(command: &str) -> bool {
    shell::summary(command).read_only
}

/// Whether some part of `command` removes or overwrites files or history: `rm`, `rmdir`, `mv`, `shred`,
/// `unlink`, `truncate`, `dd`, `find -delete`, `git reset --hard`, `git clean`, `git checkout -- …`/`git checkout
/// .`, `git restore`, `git push --force`, `git branch -D`, `git stash drop|clear`.
pub fn is_destructive(command: &str) -> bool {
    shell::analyse(command).parts.iter().any(|part| {
        let words: Vec<&str> = part.argv().iter().map(|w| w.text()).collect();
        let Some(program) = words.first().map(|p| base_name(p)) else {
            return false;
        };
        let args = &words[1..];
        let has = |flag: &str| args.contains(&flag);
        match program {
            "rm" | "rmdir" | "mv" | "shred" | "unlink" | "truncate" | "dd" => true,
            "find" => has("-delete"),
            "git" => {
                let sub = args.iter().position(|a| !a.starts_with('-'));
                let Some(sub) = sub else { return false };
                let rest = &args[sub + 1..];
                let rest_has = |flag: &str| rest.contains(&flag);
                match args[sub] {
                    "reset" => rest_has("--hard") || rest_has("--merge"),
                    "clean" => true,
                    "checkout" => rest_has("--") || rest_has(".") || rest_has("-f"),
                    "restore" => true,
                    "push" => rest
                        .iter()
                        .any(|a| *a == "-f" || a.starts_with("--force") || a.starts_with('+')),
                    "branch" => rest_has("-D") || (rest_has("-d") && rest_has("--force")),
                    "stash" => rest_has("drop") || rest_has("clear"),
                    _ => false,
                }
            }
            _ => false,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destructive_commands() {
        for c in [
            "rm -rf build",
            "ls && rm x",
            "git reset --hard HEAD~1",
            "git clean -fdx",
            "mv a b",
            "git push --force origin main",
            "find . -name '*.o' -delete",
        ] {
            assert!(is_destructive(c), "{c}");
        }
        for c in [
            "ls",
            "git status",
            "git reset HEAD x",
            "cargo build",
            "echo rm",
        ] {
            assert!(!is_destructive(c), "{c}");
        }
    }
}
