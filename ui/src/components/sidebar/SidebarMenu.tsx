// A small context menu for the sidebar, at the pointer: a list of actions (some opening a sub-list, such as the
// folders to move to). Esc or a click elsewhere closes it; Up/Down move between its items.
import { useEffect, useRef } from 'react';

export type MenuItem = { label: string; testId: string; run: () => void; depth?: number; disabled?: boolean };

export type SidebarMenuProps = { x: number; y: number; items: readonly MenuItem[]; onClose: () => void; label: string };

export function SidebarMenu({ x, y, items, onClose, label }: SidebarMenuProps) {
  const ref = useRef<HTMLUListElement>(null);
  useEffect(() => {
    ref.current?.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus();
    const onDown = (event: MouseEvent) => {
      if (!ref.current?.contains(event.target as Node)) onClose();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        onClose();
      }
    };
    window.addEventListener('mousedown', onDown, true);
    window.addEventListener('keydown', onKey, true);
    return () => {
      window.removeEventListener('mousedown', onDown, true);
      window.removeEventListener('keydown', onKey, true);
    };
  }, [onClose]);
  const step = (by: number) => {
    const buttons = [...(ref.current?.querySelectorAll<HTMLButtonElement>('button:not(:disabled)') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    buttons[(at + by + buttons.length) % buttons.length]?.focus();
  };
  return (
    <ul
      ref={ref}
      className="sidebar-menu"
      role="menu"
      aria-label={label}
      data-testid="sidebar-menu"
      style={{ left: x, top: y }}
      onKeyDown={(event) => {
        if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
          event.preventDefault();
          step(event.key === 'ArrowDown' ? 1 : -1);
        }
      }}
    >
      {items.map((item) => (
        <li key={item.testId} role="none">
          <button
            type="button"
            role="menuitem"
            className="sidebar-menu-item"
            data-testid={item.testId}
            disabled={item.disabled}
            style={item.depth ? { paddingLeft: 10 + item.depth * 12 } : undefined}
            onClick={() => {
              onClose();
              item.run();
            }}
          >
            {item.label}
          </button>
        </li>
      ))}
    </ul>
  );
}
