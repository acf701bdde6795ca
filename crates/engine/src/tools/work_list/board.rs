//! The session's checklist state: the to-do list and the task list, each announced whole on every change.

use std::sync::{Arc, Mutex, MutexGuard};

use tandem_protocol::{SessionEvent, TaskItem, TodoItem};

use crate::events::EventSink;

#[derive(Debug, Default)]
struct Lists {
    todos: Vec<TodoItem>,
    tasks: Vec<TaskItem>,
    /// The number the next new task gets.
    next_task: u64,
}

/// The checklists of one session. Every change emits `todos_changed` / `tasks_changed` with the whole list.
pub struct WorkBoard {
    lists: Mutex<Lists>,
    events: Arc<dyn EventSink>,
}

impl std::fmt::Debug for WorkBoard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WorkBoard").finish()
    }
}

impl WorkBoard {
    /// An empty board announcing its changes to `events`.
    pub fn new(events: Arc<dyn EventSink>) -> Self {
        Self {
            lists: Mutex::new(Lists {
                next_task: 1,
                ..Lists::default()
            }),
            events,
        }
    }

    /// Puts back the lists a stored session had (no event: nothing changed).
    pub fn restore(&self, todos: Vec<TodoItem>, tasks: Vec<TaskItem>) {
        let mut lists = self.lock();
        lists.next_task = tasks
            .iter()
            .filter_map(|t| t.id.parse::<u64>().ok())
            .max()
            .unwrap_or(0)
            + 1;
        lists.todos = todos;
        lists.tasks = tasks;
    }

    fn lock(&self) -> MutexGuard<'_, Lists> {
        match self.lists.lock() {
            Ok(l) => l,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    /// The to-do list now.
    pub fn todos(&self) -> Vec<TodoItem> {
        self.lock().todos.clone()
    }

    /// Replaces the to-do list; returns the list it had.
    pub fn set_todos(&self, todos: Vec<TodoItem>) -> Vec<TodoItem> {
        let old = std::mem::replace(&mut self.lock().todos, todos.clone());
        self.events.emit(SessionEvent::TodosChanged { todos });
        old
    }

    /// The task list now.
    pub fn tasks(&self) -> Vec<TaskItem> {
        self.lock().tasks.clone()
    }

    /// Changes the task list with `change` (given the list and a source of new ids); when it returns `Ok`, the
    /// whole list is announced.
    pub fn change_tasks<R, E>(
        &self,
        change: impl FnOnce(&mut Vec<TaskItem>, &mut dyn FnMut() -> String) -> Result<R, E>,
    ) -> Result<R, E> {
        let (result, tasks) = {
            let mut guard = self.lock();
            let lists = &mut *guard;
            let mut next = lists.next_task;
            let mut new_id = || {
                let id = next.to_string();
                next += 1;
                id
            };
            let result = change(&mut lists.tasks, &mut new_id)?;
            lists.next_task = next;
            (result, lists.tasks.clone())
        };
        self.events.emit(SessionEvent::TasksChanged { tasks });
        Ok(result)
    }
}
