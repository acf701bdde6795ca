//! MCP servers' forms reach the person: a server's elicitation request becomes an `elicitation_requested` event and
//! a question to the session's approver ([`Approver::elicit`]); what the person accepts is checked against the form
//! before it goes back. A form Tandem cannot show, or a run with no person to ask, is declined with a notice.

use std::sync::Arc;

use futures::future::BoxFuture;
use rmcp::model::ElicitRequestParams;
use serde_json::Value;
use tandem_protocol::{ElicitationAction, ElicitationRequest, SessionEvent};

use crate::approver::Approver;
use crate::events::EventSink;
use crate::mcp::elicitation::{check_values, read_form};
use crate::mcp::{ElicitReply, Elicitor};

/// Asks the session's person on behalf of its MCP servers.
pub(super) struct AskThePerson {
    pub session_id: String,
    pub approver: Arc<dyn Approver>,
    pub events: Arc<dyn EventSink>,
}

/// Tells the window the form is gone when the server stops waiting (answered, or the request dropped).
struct Resolved<'a>(&'a dyn EventSink, String);

impl Drop for Resolved<'_> {
    fn drop(&mut self) {
        self.0.emit(SessionEvent::ApprovalResolved {
            request_id: self.1.clone(),
        });
    }
}

impl AskThePerson {
    fn notice(&self, message: String) {
        self.events.emit(SessionEvent::Notice { message });
    }

    async fn ask(&self, server: &str, request: ElicitRequestParams) -> ElicitReply {
        let form = match read_form(&request) {
            Ok(form) => form,
            Err(why) => {
                self.notice(format!(
                    "The MCP server {server} asked for information, but {why}; it was declined."
                ));
                return ElicitReply::Decline;
            }
        };
        let request = ElicitationRequest {
            id: uuid::Uuid::new_v4().to_string(),
            session_id: self.session_id.clone(),
            server: server.to_string(),
            message: form.message,
            fields: form.fields,
        };
        let fields = request.fields.clone();
        self.events.emit(SessionEvent::ElicitationRequested {
            request: request.clone(),
        });
        let _resolved = Resolved(self.events.as_ref(), request.id.clone());
        let answer = match self.approver.elicit(request).await {
            Ok(answer) => answer,
            Err(why) => {
                self.notice(format!(
                    "The MCP server {server} asked for information; it was declined: {why}."
                ));
                return ElicitReply::Decline;
            }
        };
        match answer.action {
            ElicitationAction::Decline => ElicitReply::Decline,
            ElicitationAction::Cancel => ElicitReply::Cancel,
            ElicitationAction::Accept => {
                let values = answer.content.unwrap_or_default();
                match check_values(&fields, &values) {
                    Ok(()) => ElicitReply::Accept(Value::Object(values)),
                    Err(why) => {
                        self.notice(format!(
                            "The answer to the MCP server {server}'s form was not sent ({why}); it was declined."
                        ));
                        ElicitReply::Decline
                    }
                }
            }
        }
    }
}

impl Elicitor for AskThePerson {
    fn answer<'a>(
        &'a self,
        server: &'a str,
        request: ElicitRequestParams,
    ) -> BoxFuture<'a, ElicitReply> {
        Box::pin(self.ask(server, request))
    }
}
