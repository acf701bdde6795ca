//! What tokens cost, per model family, for the cost shown in the status bar.

use tandem_protocol::Usage;

/// Dollars per million tokens.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Price {
    pub input: f64,
    pub output: f64,
}

/// The list price of `model`, or `None` for models without a known price (local models).
pub fn price_of(model: &str) -> Option<Price> {
    let m = model.to_ascii_lowercase();
    let price = |input, output| Some(Price { input, output });
    if m.contains("opus-4-5") || m.contains("opus-4.5") || m.contains("opus-4-6") {
        price(5.0, 25.0)
    } else if m.contains("opus") {
        price(15.0, 75.0)
    } else if m.contains("sonnet") {
        price(3.0, 15.0)
    } else if m.contains("haiku-4") || m.contains("haiku-4.5") {
        price(1.0, 5.0)
    } else if m.contains("haiku") {
        price(0.8, 4.0)
    } else {
        None
    }
}

/// The cost in dollars of `usage` on `model`: cache writes at 1.25× and cache reads at 0.1× the input price.
pub fn cost_usd(model: &str, usage: &Usage) -> f64 {
    let Some(p) = price_of(model) else { return 0.0 };
    let per = |tokens: u64, dollars: f64| tokens as f64 * dollars / 1_000_000.0;
    per(usage.input_tokens, p.input)
        + per(usage.cache_creation_input_tokens, p.input * 1.25)
        + per(usage.cache_read_input_tokens, p.input * 0.1)
        + per(usage.output_tokens, p.output)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn costs() {
        let usage = Usage {
            input_tokens: 1_000_000,
            output_tokens: 100_000,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 1_000_000,
        };
        let c = cost_usd("claude-sonnet-4-5", &usage);
        assert!((c - (3.0 + 1.5 + 0.3)).abs() < 1e-9, "{c}");
        assert_eq!(cost_usd("qwen2.5-coder:7b", &usage), 0.0);
        assert_eq!(
            price_of("claude-opus-4-1"),
            Some(Price {
                input: 15.0,
                output: 75.0
            })
        );
    }
}
