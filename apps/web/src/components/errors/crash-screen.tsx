import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useComponentTrace } from '@/lib/component-trace';

/**
 * Spec §2: "Something went wrong." with Return Home, the error message and the component trace.
 * The trace is for developers: production builds leave it out.
 */
export function CrashScreen() {
  const error = useRouteError();
  const componentTrace = useComponentTrace(error);
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  // A render error has a component stack; a failed lazy load or loader only has the script's stack.
  const trace = componentTrace?.replace(/^\n+/, '') ?? (error instanceof Error ? error.stack : undefined);
  return (
    <main id="main-content" className="grid-container padding-y-6">
      <div className="usa-alert usa-alert--error" role="alert">
        <div className="usa-alert__body">
          <h1 className="usa-alert__heading">Something went wrong.</h1>
          <p className="usa-alert__text">{message}</p>
        </div>
      </div>
      <p className="margin-top-3">
        {/* A full page load: whatever state broke this render is thrown away. */}
        <a className="usa-button" href="/">
          Return Home
        </a>
      </p>
      {!import.meta.env.PROD && trace ? (
        <details className="margin-top-3" open>
          <summary>Component trace</summary>
          <pre className="font-mono-3xs" style={{ whiteSpace: 'pre-wrap' }}>
            {trace}
          </pre>
        </details>
      ) : null}
    </main>
  );
}
