import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useRef, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Modal, ModalTitle } from './Modal';

/** A page with a button behind the dialog, a window Esc listener like the session's, and the dialog. */
function Page({ onEscape, focusSecond = false }: { onEscape?: (event: KeyboardEvent) => void; focusSecond?: boolean }) {
  const second = useRef<HTMLButtonElement>(null);
  const [windowEsc, setWindowEsc] = useState(0);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) setWindowEsc((count) => count + 1);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
  return (
    <>
      <button type="button" data-testid="behind">
        Behind ({windowEsc})
      </button>
      <Modal className="test-dialog" onEscape={onEscape} initialFocus={focusSecond ? second : undefined} data-testid="dialog">
        <ModalTitle>Delete the branch?</ModalTitle>
        <button type="button" data-testid="first">
          First
        </button>
        <button ref={second} type="button" data-testid="second">
          Second
        </button>
      </Modal>
    </>
  );
}

describe('Modal', () => {
  it('is a modal dialog named by its title, inside the backdrop', () => {
    render(<Page />);
    const dialog = screen.getByRole('dialog', { name: 'Delete the branch?' });
    expect(dialog).toBe(screen.getByTestId('dialog'));
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveClass('modal', 'test-dialog');
    expect(dialog.parentElement).toHaveClass('modal-backdrop');
    // What lies behind is hidden from assistive technology while the dialog is open.
    expect(screen.queryByRole('button', { name: /Behind/ })).toBeNull();
  });

  it('moves focus to the dialog box, or to the element it is given', () => {
    const { unmount } = render(<Page />);
    expect(screen.getByTestId('dialog')).toHaveFocus();
    unmount();
    render(<Page focusSecond />);
    expect(screen.getByTestId('second')).toHaveFocus();
  });

  it('keeps focus inside: Tab from the last control comes back to the first', async () => {
    render(<Page focusSecond />);
    await userEvent.tab();
    expect(screen.getByTestId('first')).toHaveFocus();
    await userEvent.tab({ shift: true });
    expect(screen.getByTestId('second')).toHaveFocus();
  });

  it('gives Esc to the dialog, never to the window behind it', async () => {
    const onEscape = vi.fn();
    render(<Page onEscape={onEscape} />);
    await userEvent.keyboard('{Escape}');
    expect(onEscape).toHaveBeenCalledTimes(1);
    expect(onEscape.mock.calls[0]?.[0]).toMatchObject({ key: 'Escape' });
    expect(screen.getByTestId('behind')).toHaveTextContent('Behind (0)');
  });

  it('without an Esc handler, Esc does nothing and still stays in the dialog', async () => {
    render(<Page />);
    await userEvent.keyboard('{Escape}');
    expect(screen.getByTestId('dialog')).toBeInTheDocument();
    expect(screen.getByTestId('behind')).toHaveTextContent('Behind (0)');
  });

  it('is not dismissed by a click on the backdrop', async () => {
    const onEscape = vi.fn();
    render(<Page onEscape={onEscape} />);
    const backdrop = screen.getByTestId('dialog').parentElement;
    if (!backdrop) throw new Error('no backdrop');
    await userEvent.click(backdrop);
    expect(screen.getByTestId('dialog')).toBeInTheDocument();
    expect(onEscape).not.toHaveBeenCalled();
  });

  it('as a form, submits with Enter', async () => {
    const submitted = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    render(
      <Modal className="test-form" onSubmit={submitted} data-testid="form">
        <ModalTitle>Settings</ModalTitle>
        <input aria-label="Name" />
        <button type="submit">Save</button>
      </Modal>,
    );
    const form = screen.getByRole('dialog', { name: 'Settings' });
    expect(form.tagName).toBe('FORM');
    await userEvent.type(screen.getByLabelText('Name'), 'x{Enter}');
    expect(submitted).toHaveBeenCalledTimes(1);
  });
});
