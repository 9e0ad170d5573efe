// Appends events to a log from a separate process: node --import tsx append-events-helper.ts PATH WRITER COUNT MAXBYTES
import { EventLogWriter } from '../../src/runs/event-log-writer.js';

const [path, writerName, countText, maxBytesText] = process.argv.slice(2);
if (path === undefined || writerName === undefined) {
  throw new Error('usage: append-events-helper.ts PATH WRITER COUNT MAXBYTES');
}
const count = Number(countText ?? '100');
const maxBytes = Number(maxBytesText ?? '1000');
const writer = EventLogWriter.open(path);
for (let index = 0; index < count; index += 1) {
  // Sizes vary from a few bytes to maxBytes so that short and long writes race each other.
  const size = (index * 7919) % maxBytes;
  writer.append({
    type: 'log',
    level: 'info',
    message: `${writerName}:${index}:${'x'.repeat(size)}`,
    seq: index + 1,
    time: new Date().toISOString(),
  });
}
writer.close();
