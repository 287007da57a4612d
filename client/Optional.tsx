/**
 * A part of a page whose code loads on demand (React.lazy) and that the page can live without — the
 * chat, a hint, the card tracker, a panel. Drawn when its code arrives; if the code never arrives (its
 * chunk was requested while the server was away), nothing is drawn there instead of the whole page
 * failing with it: a lazy component's failed import is thrown to the nearest error boundary.
 */
import { Component, Suspense, type ReactNode } from 'react';

export class Optional extends Component<{ children: ReactNode; fallback?: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  render(): ReactNode {
    return this.state.failed ? null : <Suspense fallback={this.props.fallback ?? null}>{this.props.children}</Suspense>;
  }
}
