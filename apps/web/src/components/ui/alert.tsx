import type { AriaRole, ReactNode } from 'react';

export type AlertType = 'error' | 'warning' | 'success' | 'info';

export interface AlertProps {
  type: AlertType;
  /** Slim is the common case in this app; full alerts are for headed, page-level problems. */
  slim?: boolean;
  /** Rendered as is, so each caller keeps the heading level that fits its page outline. */
  heading?: ReactNode;
  text?: ReactNode;
  /** Extra body content after the text: lists, further paragraphs, buttons. */
  children?: ReactNode;
  id?: string;
  role?: AriaRole;
  /** Extra classes on the alert itself, such as margins. */
  className?: string;
}

/** The USWDS alert. */
export function Alert({ type, slim = true, heading, text, children, id, role, className }: AlertProps) {
  const classes = ['usa-alert', `usa-alert--${type}`, slim ? 'usa-alert--slim' : '', className ?? '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className={classes} id={id} role={role}>
      <div className="usa-alert__body">
        {heading}
        {text !== undefined && text !== null ? <p className="usa-alert__text">{text}</p> : null}
        {children}
      </div>
    </div>
  );
}

/**
 * A form-level problem, announced when it appears. The live region is always rendered because
 * screen readers only announce changes to a region that was already in the page.
 */
export function FormAlert({
  message,
  id,
  className,
}: {
  message: ReactNode | null | undefined;
  id?: string;
  className?: string;
}) {
  return (
    <div role="alert" aria-live="assertive">
      {message ? <Alert type="error" id={id} className={className} text={message} /> : null}
    </div>
  );
}
