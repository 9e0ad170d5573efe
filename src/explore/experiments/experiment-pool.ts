import type { FeedbackChannel } from '../../runs/feedback.js';

/**
 * Runs `work` on every item, at most `size` at a time, in order of the items; the first
 * error stops new items from starting and is thrown once the running ones have settled.
 */
export async function inPool<T>(
  items: readonly T[],
  size: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    while (failure === undefined && next < items.length) {
      const index = next;
      next += 1;
      const item = items[index];
      if (item === undefined) continue;
      try {
        await work(item, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, lane));
  if (failure !== undefined) throw failure.error;
}

/** A channel that asks one request at a time, in the order they came (a person answers one). */
export function oneAtATime(channel: FeedbackChannel): FeedbackChannel {
  let queue: Promise<unknown> = Promise.resolve();
  return {
    ask(request) {
      const asked = queue.then(() => channel.ask(request));
      queue = asked.catch(() => undefined);
      return asked;
    },
  };
}
