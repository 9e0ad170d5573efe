import { tokenHeaders } from './access-token.js';
import type { RunControlAnswer } from '../../src/server/handle-control.js';

/** POSTs JSON to a steering route; resolves with the run to show, or rejects with the server's message. */
export async function postJson(path: string, body: unknown): Promise<RunControlAnswer> {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...tokenHeaders() },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(text);
  }
  if (!response.ok) {
    throw new Error(
      (parsed as { error?: string }).error ?? `the server answered ${response.status}`,
    );
  }
  return parsed as RunControlAnswer;
}
