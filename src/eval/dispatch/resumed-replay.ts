import { resolve } from 'node:path';
import type { Answerer } from '../../llm/answerer.js';
import { parseModelSpec } from '../../llm/model-spec.js';
import { ReplayAnswerer } from '../../llm/replay-answerer.js';
import { roleNames } from '../../llm/types.js';
import type { CodifyConfig } from '../../config/codify-config.js';
import { readEvents } from '../../runs/read-events.js';

/**
 * Replay answerers for resuming a run killed mid-way. A resumed agent run does not ask
 * again what its completed steps asked, so a recording replayed from its first call would
 * meet the wrong request. Each recording is advanced past the calls logged before the
 * last completed step, by asking them again exactly as logged (the replay still checks
 * each one against the recording). Runs without a checkpoint start over: nothing skipped.
 */
export function positionedReplays(
  config: CodifyConfig,
  runDir: string,
  resumesAfterCheckpoint: boolean,
): Record<string, Answerer> {
  const cwd = config.cwd ?? process.cwd();
  const answerers: Record<string, ReplayAnswerer> = {};
  for (const role of roleNames) {
    for (const text of config.roles[role].models) {
      const spec = parseModelSpec(text);
      if (spec.provider === 'replay' && answerers[text] === undefined) {
        answerers[text] = new ReplayAnswerer(resolve(cwd, spec.model));
      }
    }
  }
  if (!resumesAfterCheckpoint || Object.keys(answerers).length === 0) return answerers;
  const { events } = readEvents(runDir);
  const lastStep = events.findLastIndex(
    (event) =>
      event.type === 'step-end' &&
      typeof event.checkpoint === 'object' &&
      event.checkpoint !== null,
  );
  for (const event of events.slice(0, Math.max(0, lastStep))) {
    if (event.type !== 'llm-end') continue;
    const answerer = answerers[event.model];
    if (answerer === undefined) continue;
    answerer.answerLogged({
      role: event.role,
      messages: event.messages,
      ...(event.system === undefined ? {} : { system: event.system }),
    });
  }
  return answerers;
}
