import { open } from 'node:fs/promises';
import { eventLogPath } from '../runs/event-log-file.js';
import { parseEventLine } from '../runs/parse-event-lines.js';
import type { ModelPrompt } from './api-types.js';
import { HttpError } from './http-error.js';

const chunkBytes = 256 * 1024;
const newline = 0x0a;

/**
 * The prompt (system and messages) of the model call logged as event `seq`: the part the lean
 * event stream leaves out. The log is read a chunk at a time, and only a line that names the
 * seq is parsed, so a 50 MB log costs one pass of byte searching and no more memory.
 */
export async function readLoggedPrompt(runDirectory: string, seq: number): Promise<ModelPrompt> {
  const marker = Buffer.from(`"seq":${seq},`);
  const file = await open(eventLogPath(runDirectory), 'r');
  try {
    let offset = 0;
    let pending = Buffer.alloc(0);
    for (;;) {
      const chunk = Buffer.alloc(chunkBytes);
      const { bytesRead } = await file.read(chunk, 0, chunkBytes, offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
      pending = Buffer.concat([pending, chunk.subarray(0, bytesRead)]);
      let start = 0;
      for (let end = pending.indexOf(newline); end !== -1; end = pending.indexOf(newline, start)) {
        const line = pending.subarray(start, end);
        start = end + 1;
        if (line.indexOf(marker) === -1) continue;
        const event = parseEventLine(line.toString('utf8'));
        if (typeof event === 'string' || event.seq !== seq) continue;
        if (event.type !== 'llm-end') {
          throw new HttpError(404, `event ${seq} is a ${event.type}, not a model call's answer`);
        }
        return {
          ...(event.system === undefined ? {} : { system: event.system }),
          messages: event.messages,
        };
      }
      pending = Buffer.from(pending.subarray(start));
    }
  } finally {
    await file.close();
  }
  throw new HttpError(404, `no event ${seq} in this run's log`);
}
