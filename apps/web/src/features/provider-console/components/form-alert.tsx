/** A form-level problem (the server's message), announced when it appears. */
export function FormAlert({ message }: { message: string | null }) {
  return (
    <div role="alert" aria-live="assertive">
      {message ? (
        <div className="usa-alert usa-alert--error usa-alert--slim margin-bottom-2">
          <div className="usa-alert__body">
            <p className="usa-alert__text">{message}</p>
          </div>
        </div>
      ) : null}
    </div>
  );
}
