// The one modal shell every dialog and panel uses, on Radix's accessible dialog primitive: a backdrop, a box with
// role="dialog", aria-modal and aria-labelledby (its `<ModalTitle>`), focus moved in on open and kept inside, the
// rest of the window hidden from assistive technology. Esc calls `onEscape` (the dialog's "no": deny, decline,
// cancel, close) and never reaches the window's own Esc (stop the turn); a click on the backdrop does nothing, so no
// request is ever answered by a stray click. Rendered in place, not through a portal: the dialog stays inside the
// session's tree (its contexts, its CSS), which the WebKitGTK webview shows like any other element.
import * as Dialog from '@radix-ui/react-dialog';
import { useRef, type ComponentPropsWithoutRef, type FormEvent, type ReactNode, type RefObject } from 'react';

export type ModalProps = Omit<ComponentPropsWithoutRef<'div'>, 'className' | 'onSubmit' | 'children'> & {
  /** Classes of the dialog box, after `modal`. */
  className: string;
  /** Classes of the backdrop, after `modal-backdrop`. */
  backdropClassName?: string;
  /** Esc: the dialog's way out. Absent (e.g. while an answer is being sent), Esc does nothing. */
  onEscape?: (event: KeyboardEvent) => void;
  /**
   * What takes focus when the dialog opens; the dialog box itself when absent (keys then go to the dialog's own
   * shortcuts, not to a button).
   */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Makes the dialog box a form submitted with this handler. */
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
};

export function Modal({ className, backdropClassName, onEscape, initialFocus, onSubmit, children, ...rest }: ModalProps) {
  // With `onSubmit` this holds the form (Content renders as its child).
  const box = useRef<HTMLDivElement>(null);
  const content = (
    <Dialog.Content
      ref={box}
      className={`modal ${className}`}
      aria-modal="true"
      // The dialogs name themselves with a title; a description is optional.
      aria-describedby={undefined}
      onOpenAutoFocus={(event) => {
        event.preventDefault();
        (initialFocus?.current ?? box.current)?.focus();
      }}
      onEscapeKeyDown={(event) => {
        event.preventDefault();
        onEscape?.(event);
      }}
      onInteractOutside={(event) => event.preventDefault()}
      asChild={onSubmit !== undefined}
      {...rest}
    >
      {onSubmit ? <form onSubmit={onSubmit}>{children}</form> : children}
    </Dialog.Content>
  );
  return (
    <Dialog.Root open modal>
      <Dialog.Overlay className={backdropClassName ? `modal-backdrop ${backdropClassName}` : 'modal-backdrop'}>
        {content}
      </Dialog.Overlay>
    </Dialog.Root>
  );
}

/** The dialog's title: an `<h2>` that names the dialog (aria-labelledby). */
export function ModalTitle(props: ComponentPropsWithoutRef<'h2'>) {
  return <Dialog.Title {...props} />;
}
