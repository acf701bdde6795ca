//! A session's turns: the state one turn after another shares (the history, usage, the running turn, what a skill or
//! a custom command changed for the turn) and running a prompt through its hooks, the query loop and the store.

use std::sync::{Arc, Mutex};

use tandem_protocol::Usage;
use tokio_util::sync::CancellationToken;

use super::prompt_images::FittedImage;
use super::{Session, file_mentions, prompt_ids, prompt_input, slash};
use crate::exec::hook_gate as hooks;
use crate::hooks::EventInput;
use crate::hooks::payload::{PromptSubmit, StopInput};
use crate::model::{Message, Model, TurnModel, TurnModelClient};
use crate::query::{QueryConfig, QueryError, TurnOutcome, UserPrompt, run_turn};
use crate::settings::{RuleBehavior, RuleSource};
use crate::tools::skill::{SkillGrants, invocation_text, slash_command};

/// What the turns of a session share, one turn after another.
pub(super) struct TurnState {
    pub(super) config: QueryConfig,
    pub(super) history: tokio::sync::Mutex<Vec<Message>>,
    /// Hands out the ids of prompts and `/compact` rows.
    pub(super) prompt_ids: prompt_ids::PromptIds,
    pub(super) usage: Mutex<Usage>,
    /// Cancels the running turn (an interrupt).
    pub(super) current: Mutex<Option<CancellationToken>>,
    /// The session's own allow rules when the current turn began (a skill's grant does not withdraw them).
    pub(super) rules_before: Mutex<Vec<String>>,
    /// The model a custom command or a skill asked for, for the current turn only.
    pub(super) model: Arc<TurnModel>,
    /// What skills and custom commands allowed during the current turn (withdrawn when it ends).
    pub(super) skill_grants: Arc<SkillGrants>,
}

impl Session {
    /// Runs one turn for `prompt`. Turns of one session run one at a time. The engine's own commands (`/compact`,
    /// `/model`) run instead of a turn.
    pub async fn send(&self, prompt: &str) -> Result<TurnOutcome, QueryError> {
        self.send_with_images(prompt, Vec::new()).await
    }

    /// Runs one turn for `prompt` with `images` before its text (fitted for the model by
    /// [`super::fit_image`]; `prompt` may then be empty). The images are stored with the prompt's message, so a
    /// resumed session sends them again, and shown by a `PromptImages` event after the turn's `TurnStarted`.
    /// Images cannot go with the engine's own commands: such a turn ends with an error and nothing is sent.
    pub async fn send_with_images(
        &self,
        prompt: &str,
        images: Vec<FittedImage>,
    ) -> Result<TurnOutcome, QueryError> {
        self.begin().await;
        self.turn_begins();
        let outcome = self.send_once(prompt, images).await;
        // The turn's Cron calls may have changed the project's scheduled prompts.
        self.announce_scheduled_prompts();
        self.wait_idle();
        outcome
    }

    async fn send_once(
        &self,
        prompt: &str,
        images: Vec<FittedImage>,
    ) -> Result<TurnOutcome, QueryError> {
        if let Some(command) = slash::builtin(prompt) {
            if !images.is_empty() {
                let why = format!(
                    "images cannot go with {}; send them with an ordinary prompt",
                    prompt.split_whitespace().next().unwrap_or(prompt)
                );
                return self.refuse_prompt(prompt, why, false);
            }
            return self.run_builtin(prompt, command).await;
        }
        // Turns run one at a time, and everything a turn sets for itself (the token an interrupt cancels, the
        // model a command asks for, a skill's grants) is set and cleared while it holds the history: a prompt sent
        // while another turn runs waits here without touching the running turn's state.
        let mut history = self.turn.history.lock().await;
        let outcome = self.send_inner(&mut history, prompt, images).await;
        self.withdraw_skill_grants();
        self.turn.model.set(None);
        drop(history);
        outcome
    }

    /// Withdraws the allow rules skills granted during the turn that just ended (rules the session had before the
    /// turn stay).
    pub(super) fn withdraw_skill_grants(&self) {
        let granted = self.turn.skill_grants.take();
        if granted.is_empty() {
            return;
        }
        let ctx = self.runtime.permission_context();
        let before = self
            .turn
            .rules_before
            .lock()
            .map(|r| r.clone())
            .unwrap_or_default();
        let entries: Vec<_> = ctx
            .entries
            .iter()
            .filter(|e| {
                !(e.source == RuleSource::Session
                    && e.behavior == RuleBehavior::Allow
                    && granted.contains(&e.text)
                    && !before.contains(&e.text))
            })
            .cloned()
            .collect();
        self.runtime
            .set_permission_context(ctx.with_entries(entries));
    }

    /// Notes what a turn starting now must restore when it ends (the session's own grants) and makes it the one
    /// an interrupt stops.
    pub(super) fn begin_turn(&self) -> CancellationToken {
        if let Ok(mut before) = self.turn.rules_before.lock() {
            *before = self
                .runtime
                .permission_context()
                .entries
                .iter()
                .filter(|e| e.source == RuleSource::Session && e.behavior == RuleBehavior::Allow)
                .map(|e| e.text.clone())
                .collect();
        }
        let cancel = CancellationToken::new();
        if let Ok(mut slot) = self.turn.current.lock() {
            *slot = Some(cancel.clone());
        }
        cancel
    }

    /// The client every request of a turn goes through: a skill the model invokes may switch the rest of it.
    pub(super) fn turn_client(&self) -> Arc<dyn Model> {
        Arc::new(TurnModelClient::new(
            self.models.conversation.clone(),
            self.turn.model.clone(),
        ))
    }

    /// Prepares `prompt` and runs its turn on `history`, which the caller holds locked for the whole turn.
    async fn send_inner(
        &self,
        history: &mut Vec<Message>,
        prompt: &str,
        images: Vec<FittedImage>,
    ) -> Result<TurnOutcome, QueryError> {
        let cancel = self.begin_turn();
        let command = self.expand_custom_command(prompt);
        self.turn
            .model
            .set(command.as_ref().and_then(|c| c.model.as_deref()));
        let expansion = command
            .map(|c| c.text)
            .or_else(|| self.expand_skill_command(prompt));
        let model = self.turn_client();
        let permissions = self.runtime.permission_context();
        let tools = self.runtime.pool.all();
        let files = file_mentions::MentionReader {
            cwd: &self.cwd,
            permissions: &permissions,
            tools: &tools,
            file_state: self.runtime.file_state.clone(),
        };
        let prepared = tokio::select! {
            p = prompt_input::prepare(&self.mcp, &files, self.runtime.events.as_ref(), prompt, expansion) => p,
            _ = cancel.cancelled() => Err(String::new()),
        };
        let prompt = match prepared {
            Ok(p) => p.with_images(images.into_iter().map(FittedImage::into_image).collect()),
            Err(why) => return self.refuse_prompt(prompt, why, cancel.is_cancelled()),
        };
        self.run_prompt(history, prompt, model.as_ref(), &cancel)
            .await
    }

    /// Runs the turn of a prepared prompt on the history (locked by the caller: turns run one at a time), then
    /// stores what it added.
    pub(super) async fn run_prompt(
        &self,
        history: &mut Vec<Message>,
        mut prompt: UserPrompt,
        model: &dyn Model,
        cancel: &CancellationToken,
    ) -> Result<TurnOutcome, QueryError> {
        // A checkpoint per prompt, named by the prompt's id.
        let prompt_id = self.turn.prompt_ids.next();
        if let Some(checkpoints) = &self.checkpoints
            && let Err(e) = checkpoints.begin_prompt(&prompt_id)
        {
            tracing::warn!("checkpoints: {e}");
        }
        prompt.id = Some(prompt_id);
        let mut usage = self.usage();
        let result = self
            .run_with_hooks(model, history, &mut usage, prompt, cancel)
            .await;
        if let Ok(mut slot) = self.turn.usage.lock() {
            *slot = usage;
        }
        if let Ok(mut slot) = self.turn.current.lock() {
            *slot = None;
        }
        self.transcript.sync(history);
        if let Some(recorder) = &self.recorder {
            // The model wrapper stored the history as it grew; this stores the tail no request carried (the last
            // tool results of an interrupted turn) and waits for the commit, so a caller that exits after `send`
            // loses nothing.
            recorder.sync_history(history);
            if let Err(err) = recorder.flush().await {
                tracing::warn!("session {}: {err}", self.id);
            }
        }
        result
    }

    /// Ends a turn whose prompt could not be built: an MCP prompt command that failed (the error says why), or an
    /// interrupt while it was being built. The window sees the typed prompt and why.
    fn refuse_prompt(
        &self,
        typed: &str,
        why: String,
        interrupted: bool,
    ) -> Result<TurnOutcome, QueryError> {
        use tandem_protocol::{SessionEvent, TurnStopReason};
        if let Ok(mut slot) = self.turn.current.lock() {
            *slot = None;
        }
        let events = &self.runtime.events;
        events.emit(SessionEvent::TurnStarted {
            prompt: typed.to_string(),
            prompt_id: None,
        });
        let stop_reason = if interrupted {
            TurnStopReason::Interrupted
        } else {
            events.emit(SessionEvent::Error {
                message: why.clone(),
            });
            TurnStopReason::Error
        };
        events.emit(SessionEvent::TurnEnded { stop_reason });
        if !interrupted {
            return Err(QueryError::Prompt(why));
        }
        Ok(TurnOutcome {
            stop_reason,
            final_text: String::new(),
            usage: Usage::default(),
            requests: 0,
        })
    }

    /// Tokens used by the session so far.
    pub fn usage(&self) -> Usage {
        self.turn.usage.lock().map(|u| *u).unwrap_or_default()
    }

    /// One turn with its UserPromptSubmit hooks before (a block drops the prompt; context is added to it) and its
    /// Stop hooks after (a block makes the agent go on, a few times at most). `model` answers every request of it.
    async fn run_with_hooks(
        &self,
        model: &dyn Model,
        history: &mut Vec<Message>,
        usage: &mut Usage,
        mut prompt: UserPrompt,
        cancel: &CancellationToken,
    ) -> Result<TurnOutcome, QueryError> {
        let permissions = self.runtime.permission_context();
        let notify = |messages: &[String]| {
            for message in messages {
                self.runtime
                    .events
                    .emit(tandem_protocol::SessionEvent::Notice {
                        message: message.clone(),
                    });
            }
        };
        let submitted = EventInput::UserPromptSubmit(PromptSubmit {
            prompt: prompt.text(),
        });
        if let Some(v) = hooks::run_event(&permissions, &self.id, submitted).await {
            notify(&v.errors);
            notify(&v.system_messages);
            if let Some(why) = v.block.or(v.stop) {
                notify(&[format!("A UserPromptSubmit hook dropped the prompt: {why}")]);
                return Ok(TurnOutcome {
                    stop_reason: tandem_protocol::TurnStopReason::EndTurn,
                    final_text: String::new(),
                    usage: Default::default(),
                    requests: 0,
                });
            }
            for context in v.additional_context {
                prompt
                    .content
                    .push(crate::model::ContentBlock::Text { text: context });
            }
        }
        // What SessionStart hooks gave comes first, with the first prompt after the session started.
        for (at, context) in self.take_start_context().into_iter().enumerate() {
            prompt
                .content
                .insert(at, crate::model::ContentBlock::Text { text: context });
        }
        let mut outcome = run_turn(
            model,
            &self.runtime,
            &self.turn.config,
            history,
            usage,
            prompt,
            cancel,
        )
        .await?;
        let mut active = false;
        for _ in 0..3 {
            let stop = EventInput::Stop(StopInput {
                stop_hook_active: active,
            });
            let Some(v) = hooks::run_event(&permissions, &self.id, stop).await else {
                break;
            };
            notify(&v.errors);
            match v.block {
                Some(reason) if v.stop.is_none() && !cancel.is_cancelled() => {
                    active = true;
                    outcome = run_turn(
                        model,
                        &self.runtime,
                        &self.turn.config,
                        history,
                        usage,
                        &format!("Stop hook feedback: {reason}"),
                        cancel,
                    )
                    .await?;
                }
                _ => break,
            }
        }
        Ok(outcome)
    }

    /// Interrupts the running turn, if any.
    pub fn interrupt(&self) {
        if let Ok(slot) = self.turn.current.lock()
            && let Some(token) = slot.as_ref()
        {
            token.cancel();
        }
    }

    /// For a prompt `/name args` naming a skill: the prompt the model is given instead (the skill's instructions),
    /// the skill's `allowed-tools` granted and its `model` set for the turn. `None` for any other prompt.
    pub fn expand_skill_command(&self, prompt: &str) -> Option<String> {
        let catalog = self.catalogs.skills.snapshot();
        let (skill, args) = slash_command(&catalog, prompt)?;
        if !skill.allowed_tools.is_empty() {
            let ctx = self.runtime.permission_context();
            self.turn.skill_grants.record(&skill.allowed_tools);
            self.runtime
                .set_permission_context(ctx.with_session_rules(&skill.allowed_tools));
        }
        if skill.model.as_deref().is_some_and(|m| !m.trim().is_empty()) {
            self.turn.model.set(skill.model.as_deref());
        }
        Some(format!(
            "<command-name>/{}</command-name>\n<command-args>{}</command-args>\n\n{}",
            skill.name,
            args.as_deref().unwrap_or_default(),
            invocation_text(skill, args.as_deref())
        ))
    }
}
