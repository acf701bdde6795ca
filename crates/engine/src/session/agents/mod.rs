//! The session's other agents: sub-agents (each its own query loop, a sidechain of the conversation) and teams of
//! them, with the doors through which their events and questions reach the session.

mod child;
mod doors;
mod remote;
mod remote_door;
mod side_conversation;
mod stop;
mod sub_agent;
mod team;
mod team_member;

pub(super) use child::SubAgentParts;
pub use remote_door::{RemoteAgents, RemoteConversation, RemoteDoor};
pub(super) use sub_agent::SubAgents;
pub(super) use team::Teams;
