//! The permission engine: the immutable [`PermissionContext`] and one pure [`decide`] that answers allow, ask or
//! deny for a tool call and says why (spec/permissions.md).

mod context;
mod decide;
mod subject;

pub use context::PermissionContext;
pub use decide::{CallView, decide};
pub use subject::PermissionSubject;
