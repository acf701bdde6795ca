// Small inline icons drawn as SVG, so no glyph depends on a font the machine may lack (the bundled
// fonts cover Latin text only; `glyphs.test.ts` keeps it so). Each takes the text colour and scales
// with the font size (1em square).
import type { ReactNode } from 'react';

export type IconName =
  | 'enter'
  | 'rewind'
  | 'gear'
  | 'plus'
  | 'pencil'
  | 'trash'
  | 'warning'
  | 'retry'
  | 'stop'
  | 'check'
  | 'cross'
  | 'expand'
  | 'circle'
  | 'half-circle'
  | 'full-circle'
  | 'folder'
  | 'bell'
  | 'more';

const SHAPES: Record<IconName, ReactNode> = {
  enter: <path d="M13 3v5.5H4M6.5 6L4 8.5 6.5 11" fill="none" />,
  rewind: <path d="M5.5 4L3 6.5 5.5 9M3 6.5h6.5a3.5 3.5 0 0 1 0 7H7" fill="none" />,
  gear: (
    <>
      <circle cx="8" cy="8" r="2.2" fill="none" />
      <path d="M8 1.8v2M8 12.2v2M1.8 8h2M12.2 8h2M3.6 3.6l1.4 1.4M11 11l1.4 1.4M3.6 12.4L5 11M11 5l1.4-1.4" fill="none" />
    </>
  ),
  plus: <path d="M8 3v10M3 8h10" fill="none" />,
  folder: <path d="M1.8 4.2h4.4l1.4 1.6h6.6v7.4H1.8z" fill="none" />,
  bell: <path d="M4 11.5V7.2a4 4 0 0 1 8 0v4.3l1.2 1.2H2.8zM6.6 14h2.8" fill="none" />,
  more: <path d="M3.5 8h.01M8 8h.01M12.5 8h.01" fill="none" strokeWidth="2.4" />,
  pencil: <path d="M10.5 2.8l2.7 2.7-7.7 7.7-3.3.6.6-3.3zM9 4.3l2.7 2.7" fill="none" />,
  trash: <path d="M2.8 4.5h10.4M6.3 4.5V2.8h3.4v1.7M4.3 4.5l.7 8.7h6l.7-8.7M6.8 7v4M9.2 7v4" fill="none" />,
  warning: (
    <>
      <path d="M8 2L14.5 13.5h-13z" fill="none" />
      <path d="M8 6.2v3.6" fill="none" />
      <circle cx="8" cy="11.7" r="0.5" />
    </>
  ),
  retry: <path d="M12.8 8A4.8 4.8 0 1 1 11.4 4.6M12.2 1.8v3.2H9" fill="none" />,
  stop: <rect x="4" y="4" width="8" height="8" rx="1" />,
  check: <path d="M3.5 8.5l3 3 6-7" fill="none" />,
  cross: <path d="M4 4l8 8M12 4l-8 8" fill="none" />,
  expand: <path d="M8 2v12M5 4.8L8 2l3 2.8M5 11.2L8 14l3-2.8" fill="none" />,
  circle: <circle cx="8" cy="8" r="4.5" fill="none" />,
  'half-circle': (
    <>
      <circle cx="8" cy="8" r="4.5" fill="none" />
      <path d="M8 3.5a4.5 4.5 0 0 1 0 9z" />
    </>
  ),
  'full-circle': <circle cx="8" cy="8" r="4.5" />,
};

/** An inline SVG icon, hidden from assistive technology (the control around it carries the label). */
export function Icon({ name, className }: { name: IconName; className?: string }) {
  return (
    <svg
      className={`icon icon-${name}${className ? ` ${className}` : ''}`}
      data-icon={name}
      viewBox="0 0 16 16"
      width="1em"
      height="1em"
      aria-hidden="true"
      focusable="false"
    >
      <g stroke="currentColor" fill="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round">
        {SHAPES[name]}
      </g>
    </svg>
  );
}
