// The agent's checklist, pinned above the prompt: its to-do list (TodoWrite) or its tasks (the task
// tools), with what is in progress named as it is being done. Collapsible; hidden when empty.
import { useState } from 'react';
import type { TaskItem, TodoItem, TodoStatus } from '../../generated/protocol';
import { Icon, type IconName } from '../common/Icon';

export type ChecklistProps = {
  todos: readonly TodoItem[];
  tasks: readonly TaskItem[];
};

type Row = { key: string; text: string; status: TodoStatus; note: string | null };

const MARKS: Record<TodoStatus, IconName> = { pending: 'circle', in_progress: 'half-circle', completed: 'full-circle' };

export function Checklist({ todos, tasks }: ChecklistProps) {
  const [open, setOpen] = useState(true);
  const rows: Row[] =
    tasks.length > 0
      ? tasks.map((task) => ({
          key: task.id,
          text: task.status === 'in_progress' && task.active_form ? task.active_form : task.subject,
          status: task.status,
          note: task.blocked_by.length > 0 && task.status !== 'completed' ? `after ${task.blocked_by.map((id) => `#${id}`).join(', ')}` : task.owner,
        }))
      : todos.map((todo, index) => ({
          key: String(index),
          text: todo.status === 'in_progress' ? todo.active_form : todo.content,
          status: todo.status,
          note: null,
        }));
  if (rows.length === 0) return null;
  const done = rows.filter((row) => row.status === 'completed').length;
  return (
    <section className="checklist" data-testid="checklist" aria-label="The agent's checklist">
      <button type="button" className="checklist-head" aria-expanded={open} onClick={() => setOpen((previous) => !previous)}>
        Checklist <span className="dim">{done}/{rows.length} done</span>
      </button>
      {open && (
        <ul className="checklist-items">
          {rows.map((row) => (
            <li key={row.key} className={`checklist-item status-${row.status}`} data-testid="checklist-item" data-status={row.status}>
              <span className="checklist-mark" aria-hidden="true">
                <Icon name={MARKS[row.status]} />
              </span>
              <span className="checklist-text">{row.text}</span>
              {row.note && <span className="dim checklist-note">{row.note}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
