//! Firing the project's scheduled prompts (CronCreate; behind `AGENT_TRIGGERS`) into the session: each minute the
//! prompts that came due are taken from the project's task file and sent, one turn each, once the turn running now
//! (if there is one) has ended — as the lead's mail is. A prompt is sent as written (a slash command in it is not expanded).
//! Fires missed while nothing ran are not replayed: a prompt overdue when the scheduler looks fires once, and its
//! next fire is counted from then. RemoteTrigger's triggers (`AGENT_TRIGGERS_REMOTE`) come due the same way and are
//! started in the background on their machine; their outcomes reach the agent's mailbox.

use std::sync::{Arc, Weak};
use std::time::Duration;

use chrono::{DateTime, Local, Timelike};
use tandem_protocol::{ScheduledPrompt, SessionEvent};

use super::Session;
use crate::model::Message;
use crate::query::{QueryError, TurnOutcome, UserPrompt};
use crate::tool::names;
use crate::tools::cron::{Schedule, ScheduledTask, TaskFile, TasksError};

/// A scheduled prompt that was sent, and how its turn went.
pub type Fired = (ScheduledTask, Result<TurnOutcome, QueryError>);

impl Session {
    /// Whether this session fires scheduled prompts: the switch is on and a deny rule does not hide all three
    /// scheduling tools, or RemoteTrigger is offered (its triggers are run).
    pub fn schedules_prompts(&self) -> bool {
        self.fires_local_prompts() || self.runs_remote_triggers()
    }

    /// Whether the prompts without a target are sent to this session (CronCreate and its kin are offered).
    fn fires_local_prompts(&self) -> bool {
        [names::CRON_CREATE, names::CRON_DELETE, names::CRON_LIST]
            .iter()
            .any(|name| self.runtime.pool.find(name).is_some())
    }

    /// Whether RemoteTrigger's triggers are run by this session (it is offered).
    fn runs_remote_triggers(&self) -> bool {
        self.remote_runs.is_some() && self.runtime.pool.find(names::REMOTE_TRIGGER).is_some()
    }

    /// Shows the window the project's scheduled prompts when they differ from what it was shown last (the first
    /// time always), for a session that fires them. A file that cannot be read shows nothing new (the scheduler
    /// reports it).
    pub fn announce_scheduled_prompts(&self) {
        if !self.fires_local_prompts() {
            return;
        }
        let Ok(tasks) = TaskFile::of_project(&self.cwd).load() else {
            return;
        };
        let now = Local::now().timestamp_millis();
        let prompts: Vec<ScheduledPrompt> = tasks
            .iter()
            // RemoteTrigger's run elsewhere; the window lists the prompts sent to this session.
            .filter(|task| task.target.is_none())
            .map(|task| {
                let schedule = Schedule::parse(&task.cron).ok();
                ScheduledPrompt {
                    id: task.id.clone(),
                    cron: task.cron.clone(),
                    schedule: schedule
                        .as_ref()
                        .map(Schedule::describe)
                        .unwrap_or_else(|| task.cron.clone()),
                    prompt: task.prompt.clone(),
                    recurring: task.recurring,
                    next_fire_ms: schedule
                        .and_then(|s| s.next_after_ms(task.anchor_ms().max(now)))
                        .map(|t| t.timestamp_millis()),
                }
            })
            .collect();
        let Ok(mut shown) = self.lifecycle.scheduled_shown.lock() else {
            return;
        };
        if shown.as_ref() == Some(&prompts) {
            return;
        }
        *shown = Some(prompts.clone());
        drop(shown);
        self.runtime
            .events
            .emit(SessionEvent::ScheduledPrompts { prompts });
    }

    /// Sends the project's prompts due at `now`, one turn each, once no other turn runs (the history's lock is the
    /// queue): they are taken from the file only then — a one-shot prompt removed, a recurring one marked fired — so
    /// that no other session on the project sends them too. Nothing is taken or sent once the session has ended. On
    /// error (the file cannot be read, parsed or written) nothing is sent and the file is left as it was.
    pub async fn fire_due_prompts(&self, now: DateTime<Local>) -> Result<Vec<Fired>, TasksError> {
        self.begin().await;
        let mut history = self.turn.history.lock().await;
        if self.has_ended() {
            return Ok(Vec::new());
        }
        let file = TaskFile::of_project(&self.cwd);
        if let Some(runs) = self
            .remote_runs
            .as_ref()
            .filter(|_| self.runs_remote_triggers())
        {
            // Each remote trigger runs in the background; its outcome reaches the agent's mailbox.
            for task in file.claim_due_of(now.timestamp_millis(), true)? {
                let mailbox = self.runtime.mailbox.as_ref().map(Arc::downgrade);
                runs.start(task, mailbox.unwrap_or_default());
            }
        }
        if !self.fires_local_prompts() {
            return Ok(Vec::new());
        }
        let due = file.claim_due(now.timestamp_millis())?;
        let mut fired = Vec::with_capacity(due.len());
        for task in due {
            let result = self.run_scheduled(&mut history, &task.prompt).await;
            fired.push((task, result));
        }
        Ok(fired)
    }

    /// Runs one turn for a scheduled prompt on the history its caller locked.
    async fn run_scheduled(
        &self,
        history: &mut Vec<Message>,
        prompt: &str,
    ) -> Result<TurnOutcome, QueryError> {
        self.turn_begins();
        let cancel = self.begin_turn();
        let model = self.turn_client();
        let result = self
            .run_prompt(history, UserPrompt::from(prompt), model.as_ref(), &cancel)
            .await;
        self.withdraw_skill_grants();
        self.turn.model.set(None);
        self.wait_idle();
        result
    }
}

/// Fires the session's scheduled prompts as they come due, looking once at the start (a prompt overdue since the
/// app was closed fires then) and then at the start of every minute, until the session is dropped; does nothing for
/// a session that does not schedule prompts. Between looks it holds no reference to the session. A task file that
/// cannot be used is reported to the window once (until the problem changes). Hosts that keep a session open between
/// prompts (the window) run this beside it.
pub async fn run_scheduled_prompts(session: Weak<Session>) {
    let Some(closed) = session
        .upgrade()
        .filter(|s| s.schedules_prompts())
        .map(|s| s.closed.clone())
    else {
        return;
    };
    let mut reported: Option<String> = None;
    loop {
        let Some(session) = session.upgrade().filter(|s| !s.has_ended()) else {
            return;
        };
        look(&session, &mut reported).await;
        drop(session);
        tokio::select! {
            _ = tokio::time::sleep(until_next_minute(Local::now())) => {}
            _ = closed.cancelled() => return,
        }
    }
}

/// One look: sends what is due now; a problem with the file is shown unless it is the one `reported` last.
async fn look(session: &Session, reported: &mut Option<String>) {
    session.announce_scheduled_prompts();
    let fired = session.fire_due_prompts(Local::now()).await;
    session.announce_scheduled_prompts();
    match fired {
        Ok(fired) => {
            *reported = None;
            for (task, result) in fired {
                if let Err(e) = result {
                    tracing::warn!(
                        "session {}: the turn of scheduled prompt {} failed: {e}",
                        session.id,
                        task.id
                    );
                }
            }
        }
        Err(e) => {
            let message = e.to_string();
            if reported.as_deref() != Some(message.as_str()) {
                session.runtime.events.emit(SessionEvent::Notice {
                    message: message.clone(),
                });
                *reported = Some(message);
            }
        }
    }
}

/// How long past the start of a minute the scheduler looks (a timer never fires early, so this only covers the wall
/// clock and the monotonic clock disagreeing by a little; a look that comes early finds nothing and the next one
/// follows shortly).
const PAST_THE_MINUTE: Duration = Duration::from_millis(50);

/// How long from `now` until [`PAST_THE_MINUTE`] past the start of the next minute.
fn until_next_minute(now: DateTime<Local>) -> Duration {
    let into_minute = Duration::from_secs(u64::from(now.second()))
        + Duration::from_nanos(u64::from(now.nanosecond() % 1_000_000_000));
    (Duration::from_secs(60) + PAST_THE_MINUTE).saturating_sub(into_minute)
}
