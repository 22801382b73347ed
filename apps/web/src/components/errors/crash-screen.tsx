import { Component, type ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { useComponentTrace } from '@/lib/component-trace';

interface CrashBoundaryProps {
  children: ReactNode;
  /** A new value (the next page) leaves the crash screen for the children again. */
  resetKey: unknown;
}
interface CrashBoundaryState {
  error: unknown;
  resetKey: unknown;
}

/** Shows the crash screen in place of `children` when they throw while rendering or fail to load. */
export class CrashBoundary extends Component<CrashBoundaryProps, CrashBoundaryState> {
  override state: CrashBoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<CrashBoundaryState> {
    // A thrown null or undefined is still a crash.
    return { error: error ?? new Error(String(error)) };
  }

  static getDerivedStateFromProps(
    props: CrashBoundaryProps,
    state: CrashBoundaryState,
  ): Partial<CrashBoundaryState> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  override render() {
    return this.state.error ? <CrashScreen error={this.state.error} /> : this.props.children;
  }
}

/**
 * Spec §2: "Something went wrong." with Return Home, the error message and the component trace.
 * The trace is for developers: production builds leave it out.
 */
export function CrashScreen({ error }: { error: unknown }) {
  const componentTrace = useComponentTrace(error);
  const message = error instanceof Error ? error.message : String(error);
  // A render error has a component stack; a failed lazy load only has the script's stack.
  const trace = componentTrace?.replace(/^\n+/, '') ?? (error instanceof Error ? error.stack : undefined);
  return (
    <main id="main-content" className="grid-container padding-y-6">
      <Alert
        type="error"
        slim={false}
        role="alert"
        heading={<h1 className="usa-alert__heading">Something went wrong.</h1>}
        text={message}
      />
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
