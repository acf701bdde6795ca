// The disclosure arrow of expandable rows.
export function Chevron({ open }: { open: boolean }) {
  return (
    <svg className={`chevron${open ? ' is-open' : ''}`} viewBox="0 0 16 16" width="12" height="12" aria-hidden="true">
      <path d="M6 4l4 4-4 4" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}
