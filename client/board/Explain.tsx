/**
 * A chip or symbol with its meaning: shown on hover (title), on a tap or click (it opens below, and closes
 * on a second tap), and read by screen readers as part of the chip.
 */
import { useState, type ReactNode } from 'react';

export function Explain({ text, className, children }: { text: string; className?: string; children: ReactNode }): ReactNode {
  const [open, setOpen] = useState(false);
  return (
    <span className={`explain${className ? ` ${className}` : ''}`}>
      <button type="button" className="explain-chip" title={text} aria-expanded={open} data-explain onClick={() => setOpen(!open)}>
        <span aria-hidden="true">{children}</span>
        <span className="sr-only">{text}</span>
      </button>
      {open && (
        <span className="explain-text" role="note">
          {text}
        </span>
      )}
    </span>
  );
}
