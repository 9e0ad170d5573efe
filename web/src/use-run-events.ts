import { useEffect, useState } from 'react';
import type { CodifyEvent } from '../../src/runs/events.js';
import { withToken } from './access-token.js';
import { apiPaths } from './model/api-paths.js';

export interface RunEventsState {
  events: CodifyEvent[];
  /** The stream is open (it follows a live run until the page closes). */
  connected: boolean;
}

/**
 * A run's events over server-sent events: the whole log first, then every event as the run
 * writes it. Events that arrive together are applied in one render, so a long log does not
 * re-render a thousand times; EventSource reconnects by itself, continuing after the last id.
 */
export function useRunEvents(runId: string): RunEventsState {
  const [state, setState] = useState<RunEventsState>({ events: [], connected: false });
  useEffect(() => {
    setState({ events: [], connected: false });
    const source = new EventSource(withToken(apiPaths.events(runId)));
    let pending: CodifyEvent[] = [];
    let scheduled: number | undefined;
    const flush = () => {
      scheduled = undefined;
      const arrived = pending;
      pending = [];
      setState((previous) => ({ events: previous.events.concat(arrived), connected: true }));
    };
    source.onopen = () => setState((previous) => ({ ...previous, connected: true }));
    source.onmessage = (message: MessageEvent<string>) => {
      pending.push(JSON.parse(message.data) as CodifyEvent);
      scheduled ??= window.setTimeout(flush, 30);
    };
    source.onerror = () => setState((previous) => ({ ...previous, connected: false }));
    return () => {
      source.close();
      if (scheduled !== undefined) window.clearTimeout(scheduled);
    };
  }, [runId]);
  return state;
}
