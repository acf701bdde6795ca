//! AskUserQuestion: the agent asks the person one to four multiple-choice questions (two to four options each,
//! multi-select where asked, "Other" with free text always possible) and gets their answers as the result. The
//! question is never answered for the person: every mode asks (dontAsk and background agents refuse the call), and
//! where nobody can answer the result says so.

use std::collections::HashSet;

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{
    Question, QuestionOption, QuestionOutcome, QuestionReply, RenderHints, ToolKind,
};

use crate::tool::names;
use crate::tool::{PersonError, Tool, ToolContext, ToolError, ToolOutput};

/// Questions per call, at most.
pub const MAX_QUESTIONS: usize = 4;
/// Options per question: at least, at most.
pub const OPTION_RANGE: (usize, usize) = (2, 4);
/// Characters of a question's header, at most.
pub const MAX_HEADER_CHARS: usize = 12;

/// One choice.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OptionInput {
    /// The text the user picks (1-5 words), unique within the question.
    pub label: String,
    /// What this choice means or what would happen with it.
    pub description: String,
}

/// One question.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct QuestionInput {
    /// The complete question, ending with a question mark.
    pub question: String,
    /// A very short label shown as a chip (at most 12 characters), e.g. "Auth method".
    pub header: String,
    /// Two to four distinct choices. Do not add an "Other" choice: the user can always type their own answer.
    pub options: Vec<OptionInput>,
    /// Whether the user may choose several options.
    #[serde(default, rename = "multiSelect")]
    pub multi_select: bool,
}

/// The questions.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AskUserQuestionInput {
    /// One to four questions, asked together.
    pub questions: Vec<QuestionInput>,
}

/// Asks the person multiple-choice questions.
#[derive(Debug, Clone, Copy, Default)]
pub struct AskUserQuestionTool;

/// Checks the counts and that questions and labels are unique and not blank.
pub fn check_questions(input: &AskUserQuestionInput) -> Result<(), String> {
    let n = input.questions.len();
    if n == 0 || n > MAX_QUESTIONS {
        return Err(format!(
            "Ask between 1 and {MAX_QUESTIONS} questions (got {n})."
        ));
    }
    let mut seen = HashSet::new();
    for (i, q) in input.questions.iter().enumerate() {
        let which = format!("Question {}", i + 1);
        if q.question.trim().is_empty() {
            return Err(format!("{which} has no text."));
        }
        if !seen.insert(q.question.trim()) {
            return Err(format!(
                "{which} repeats an earlier question: questions must be unique."
            ));
        }
        if q.header.trim().is_empty() || q.header.chars().count() > MAX_HEADER_CHARS {
            return Err(format!(
                "{which}: the header must be 1 to {MAX_HEADER_CHARS} characters."
            ));
        }
        let count = q.options.len();
        if count < OPTION_RANGE.0 || count > OPTION_RANGE.1 {
            return Err(format!(
                "{which} has {count} options; give between {} and {}.",
                OPTION_RANGE.0, OPTION_RANGE.1
            ));
        }
        let mut labels = HashSet::new();
        for option in &q.options {
            let label = option.label.trim();
            if label.is_empty() {
                return Err(format!("{which} has an option without a label."));
            }
            if !labels.insert(label) {
                return Err(format!(
                    "{which} has the label \"{label}\" twice: option labels must be unique."
                ));
            }
        }
    }
    Ok(())
}

fn to_protocol(input: &AskUserQuestionInput) -> Vec<Question> {
    input
        .questions
        .iter()
        .map(|q| Question {
            question: q.question.clone(),
            header: q.header.clone(),
            options: q
                .options
                .iter()
                .map(|o| QuestionOption {
                    label: o.label.clone(),
                    description: o.description.clone(),
                })
                .collect(),
            multi_select: q.multi_select,
        })
        .collect()
}

/// The answer to one question as the model reads it: the chosen labels (joined by ", "), then the person's own
/// text.
fn reply_text(reply: Option<&QuestionReply>) -> String {
    let Some(reply) = reply else {
        return "(no answer)".into();
    };
    let mut parts: Vec<String> = reply.selected.clone();
    if let Some(other) = reply
        .other
        .as_deref()
        .map(str::trim)
        .filter(|o| !o.is_empty())
    {
        parts.push(other.to_string());
    }
    if parts.is_empty() {
        "(no answer)".into()
    } else {
        parts.join(", ")
    }
}

/// The result text for the person's answers.
pub fn answers_text(input: &AskUserQuestionInput, replies: &[QuestionReply]) -> String {
    let pairs: Vec<String> = input
        .questions
        .iter()
        .enumerate()
        .map(|(i, q)| format!("\"{}\"=\"{}\"", q.question, reply_text(replies.get(i))))
        .collect();
    format!(
        "The user answered your questions: {}. Go on with these answers in mind.",
        pairs.join(", ")
    )
}

impl Tool for AskUserQuestionTool {
    type Input = AskUserQuestionInput;

    fn name(&self) -> &'static str {
        names::ASK_USER_QUESTION
    }

    fn description(&self) -> String {
        "Ask the user one to four multiple-choice questions when you need their decision or preference to go on \
         (unclear requirements, a choice between approaches). Each question has two to four options with a short \
         label and a description; set multiSelect when several may apply. The user can always answer in their own \
         words instead (\"Other\"), so do not add such an option. If you recommend an option, put it first and add \
         \"(Recommended)\" to its label."
            .into()
    }

    fn is_read_only(&self, _input: &AskUserQuestionInput) -> bool {
        true
    }

    fn asks_person_itself(&self) -> bool {
        true
    }

    fn render_hints(&self, input: &AskUserQuestionInput, _ctx: &ToolContext) -> RenderHints {
        let title = match input.questions.as_slice() {
            [one] => one.question.clone(),
            many => format!("{} questions", many.len()),
        };
        RenderHints {
            kind: ToolKind::Other,
            title,
            collapsible: false,
        }
    }

    async fn validate_input(
        &self,
        input: &AskUserQuestionInput,
        _ctx: &ToolContext,
    ) -> Result<(), String> {
        check_questions(input)
    }

    async fn call(
        &self,
        input: &AskUserQuestionInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let nobody = |why: &str| {
            ToolError::to_model(format!(
                "Nobody can answer questions here ({why}). Do not wait for an answer: go on with the most \
                 reasonable choice and say which assumptions you made."
            ))
        };
        let Some(person) = &ctx.person else {
            return Err(nobody("no person is attached to this run"));
        };
        match person
            .ask_questions(&ctx.tool_use_id, to_protocol(input), &ctx.cancel)
            .await
        {
            Ok(QuestionOutcome::Answered { replies }) => {
                Ok(ToolOutput::text(answers_text(input, &replies)))
            }
            Ok(QuestionOutcome::Declined { message }) => {
                let mut text =
                    "The user declined to answer the questions. Do not ask them again; go on without the answers or \
                     stop and say what you need."
                        .to_string();
                if let Some(note) = message.filter(|m| !m.trim().is_empty()) {
                    text.push_str(&format!(" The user said: {note}"));
                }
                Err(ToolError::to_model(text))
            }
            Err(PersonError::Cancelled) => Err(ToolError::Cancelled),
            Err(PersonError::NoAnswer(why)) => Err(nobody(&why)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn question(q: &str, labels: &[&str]) -> QuestionInput {
        QuestionInput {
            question: q.into(),
            header: "Pick".into(),
            options: labels
                .iter()
                .map(|l| OptionInput {
                    label: (*l).into(),
                    description: String::new(),
                })
                .collect(),
            multi_select: false,
        }
    }

    fn check(questions: Vec<QuestionInput>) -> Result<(), String> {
        check_questions(&AskUserQuestionInput { questions })
    }

    #[test]
    fn counts_and_uniqueness_are_checked() {
        assert!(check(vec![question("Which?", &["a", "b"])]).is_ok());
        assert!(check(vec![]).unwrap_err().contains("between 1 and 4"));
        let five = (0..5)
            .map(|i| question(&format!("Q{i}?"), &["a", "b"]))
            .collect();
        assert!(check(five).unwrap_err().contains("got 5"));
        assert!(
            check(vec![question("Which?", &["a"])])
                .unwrap_err()
                .contains("1 options")
        );
        assert!(
            check(vec![question("Which?", &["a", "b", "c", "d", "e"])])
                .unwrap_err()
                .contains("5 options")
        );
        assert!(
            check(vec![question("Which?", &["a", "a "])])
                .unwrap_err()
                .contains("twice")
        );
        assert!(
            check(vec![
                question("Which?", &["a", "b"]),
                question("Which?", &["c", "d"])
            ])
            .unwrap_err()
            .contains("unique")
        );
        let mut long = question("Which?", &["a", "b"]);
        long.header = "a header that is far too long".into();
        assert!(check(vec![long]).unwrap_err().contains("header"));
    }

    #[test]
    fn answers_name_each_question_with_labels_and_other_text() {
        let input = AskUserQuestionInput {
            questions: vec![
                question("Which db?", &["Postgres", "SQLite"]),
                question("Extras?", &["x", "y"]),
            ],
        };
        let text = answers_text(
            &input,
            &[
                QuestionReply {
                    selected: vec!["SQLite".into()],
                    other: None,
                },
                QuestionReply {
                    selected: vec!["x".into(), "y".into()],
                    other: Some("and z".into()),
                },
            ],
        );
        assert!(text.contains("\"Which db?\"=\"SQLite\""), "{text}");
        assert!(text.contains("\"Extras?\"=\"x, y, and z\""), "{text}");
    }
}
