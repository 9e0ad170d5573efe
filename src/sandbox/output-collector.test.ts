import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OutputCollector } from './output-collector.js';

describe('output collector', () => {
  let folder = '';
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('keeps head and tail for the model, everything in the file up to its cap', async () => {
    folder = await mkdtemp(join(tmpdir(), 'codify-output-'));
    const path = join(folder, 'output.txt');
    const collector = new OutputCollector(path, 10, 25);
    expect(collector.add(Buffer.from('HEAD1'))).toBe(true);
    expect(collector.add(Buffer.from('middle-middle'))).toBe(true);
    expect(collector.add(Buffer.from('TAIL2xxxxx'))).toBe(false);
    collector.close();
    expect(collector.totalBytes).toBe(28);
    expect(collector.truncated).toBe(true);
    expect(collector.fileCapped).toBe(true);
    const text = collector.text();
    expect(text.startsWith('HEAD1')).toBe(true);
    expect(text.endsWith('xxxxx')).toBe(true);
    expect(text).toContain('18 bytes of output cut here (28 bytes in all)');
    expect(text).toContain(`the first 25 bytes are saved in ${path}`);
    expect(await readFile(path, 'utf8')).toBe('HEAD1middle-middleTAIL2xx');
  });

  it('shows short output whole', async () => {
    folder = await mkdtemp(join(tmpdir(), 'codify-output-'));
    const collector = new OutputCollector(join(folder, 'o.txt'), 100, 1000);
    collector.add(Buffer.from('hello\n'));
    collector.close();
    expect(collector.truncated).toBe(false);
    expect(collector.text()).toBe('hello\n');
  });
});
