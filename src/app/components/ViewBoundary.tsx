import { Component, type ReactNode } from 'react';

/**
 * One view that throws must not take the page (and the running scenario) with it: the error is
 * shown in that view's box, and the rest keeps working.
 */
export class ViewBoundary extends Component<{ name: string; children: ReactNode }, { error: string | null }> {
  state = { error: null as string | null };

  static getDerivedStateFromError(e: unknown): { error: string } {
    return { error: e instanceof Error ? e.message : String(e) };
  }

  render(): ReactNode {
    if (this.state.error)
      return (
        <div className="view-error" role="alert" data-testid="error">
          {this.props.name}: {this.state.error}
          <button type="button" onClick={() => this.setState({ error: null })}>
            ↻
          </button>
        </div>
      );
    return this.props.children;
  }
}
