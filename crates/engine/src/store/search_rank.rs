//! Ranking a search's candidate texts by BM25, counted here rather than by FTS5's `bm25()` (which counts, for each
//! query, every text holding each word — a full pass over a frequent word's list): each word's or phrase's
//! occurrences in the text, the text's length, and a weight per word from how many texts hold it.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// BM25's usual constants.
const K1: f64 = 1.2;
const B: f64 = 0.75;

/// A word or phrase of the query as the index reads it: its words folded (lower case, no accents); `prefix`: its
/// last word matches words that begin so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Needle {
    words: Vec<String>,
    prefix: bool,
}

impl Needle {
    pub fn new(text: &str, prefix: bool) -> Self {
        Self {
            words: words(text).map(fold).collect(),
            prefix,
        }
    }

    /// How often it occurs in `text` (words already split).
    fn count(&self, text: &[&str]) -> usize {
        let n = self.words.len();
        if n == 0 || text.len() < n {
            return 0;
        }
        (0..=text.len() - n)
            .filter(|&start| {
                self.words.iter().enumerate().all(|(i, word)| {
                    let last = i + 1 == n;
                    same(text[start + i], word, self.prefix && last)
                })
            })
            .count()
    }
}

/// The words of `text` as the index's tokenizer (`unicode61`) splits them: runs of letters and digits.
pub fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
}

/// A word in lower case without accents.
fn fold(word: &str) -> String {
    if word.is_ascii() {
        return word.to_ascii_lowercase();
    }
    word.nfd()
        .filter(|c| !is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether `word` of a text is `folded` (or begins with it, for a prefix).
fn same(word: &str, folded: &str, prefix: bool) -> bool {
    if word.is_ascii() {
        if prefix {
            word.len() >= folded.len() && word[..folded.len()].eq_ignore_ascii_case(folded)
        } else {
            word.eq_ignore_ascii_case(folded)
        }
    } else {
        let word = fold(word);
        if prefix {
            word.starts_with(folded)
        } else {
            word == folded
        }
    }
}

/// The weight of a word held by `holding` of `total` texts (BM25's IDF, in the form that stays above zero for a
/// word in most texts, so that such a word still counts a little).
pub fn weight(holding: f64, total: f64) -> f64 {
    let holding = holding.clamp(0.0, total.max(1.0));
    (1.0 + (total - holding + 0.5) / (holding + 0.5)).ln()
}

/// The BM25 score of `text` (higher is better) for `needles` weighted by `weights`, texts being `avg_len` words
/// long on average.
pub fn score(text: &str, needles: &[Needle], weights: &[f64], avg_len: f64) -> f64 {
    let split: Vec<&str> = words(text).collect();
    let len = split.len() as f64;
    let norm = K1 * (1.0 - B + B * len / avg_len.max(1.0));
    needles
        .iter()
        .zip(weights)
        .map(|(needle, weight)| {
            let tf = needle.count(&split) as f64;
            weight * tf * (K1 + 1.0) / (tf + norm)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn needles_count_words_phrases_and_prefixes_as_the_index_matches_them() {
        let text = "Café CAFE cafés: the café-owner's cafe; cafeteria";
        let split: Vec<&str> = words(text).collect();
        let cases: &[(&str, bool, usize)] = &[
            ("cafe", false, 4),
            ("café", false, 4),
            ("cafe", true, 6),
            ("cafe owner", false, 1),
            ("the cafe", false, 1),
            ("cafe own", true, 1),
            ("tea", false, 0),
            ("", false, 0),
        ];
        for (needle, prefix, want) in cases {
            assert_eq!(
                Needle::new(needle, *prefix).count(&split),
                *want,
                "{needle:?} prefix {prefix}"
            );
        }
    }

    #[test]
    fn more_occurrences_a_shorter_text_and_a_rarer_word_score_higher() {
        let needle = [Needle::new("zebra", false)];
        let one = [1.0];
        let often = score("zebra zebra zebra here", &needle, &one, 10.0);
        let once = score("zebra here and there", &needle, &one, 10.0);
        let long = score(
            &format!("zebra {}", "word ".repeat(50)),
            &needle,
            &one,
            10.0,
        );
        assert!(often > once && once > long, "{often} {once} {long}");
        assert_eq!(score("no match", &needle, &one, 10.0), 0.0);
        assert!(weight(1.0, 1000.0) > weight(500.0, 1000.0));
        assert!(
            weight(1000.0, 1000.0) > 0.0,
            "a word in every text still counts"
        );
        // Two words: the text with the rarer one ranks above the text with the common one.
        let both = [Needle::new("rare", false), Needle::new("common", false)];
        let weights = [weight(2.0, 1000.0), weight(900.0, 1000.0)];
        assert!(
            score("rare x y", &both, &weights, 3.0) > score("common x y", &both, &weights, 3.0)
        );
    }
}
