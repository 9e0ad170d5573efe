import { useEffect, useState } from 'react';
import { tokenHeaders } from './access-token.js';

export interface JsonState<T> {
  data?: T;
  error?: string;
  /** Whether the first answer has arrived (or failed). */
  loaded: boolean;
}

/** Fetches JSON (or text) from the API, again whenever `reloadKey` changes; keeps the last data while reloading. */
export function useFetched<T>(
  path: string | undefined,
  reloadKey: unknown,
  as: 'json' | 'text' = 'json',
): JsonState<T> {
  const [state, setState] = useState<JsonState<T>>({ loaded: false });
  useEffect(() => {
    if (path === undefined) return;
    const controller = new AbortController();
    fetch(path, { signal: controller.signal, headers: tokenHeaders() })
      .then(async (response) => {
        if (!response.ok) {
          const body = await response.text();
          let message = body;
          try {
            message = (JSON.parse(body) as { error?: string }).error ?? body;
          } catch {
            // a plain-text answer: shown as it is
          }
          setState((previous) => ({ ...previous, error: message, loaded: true }));
          return;
        }
        const data = (as === 'json' ? await response.json() : await response.text()) as T;
        setState({ data, loaded: true });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setState((previous) => ({ ...previous, error: String(error), loaded: true }));
      });
    return () => controller.abort();
  }, [path, reloadKey, as]);
  return state;
}
