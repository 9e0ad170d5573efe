import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { createModelCaller } from '../../src/llm/create-model-caller.js';
import { ReplayMismatchError } from '../../src/llm/replay-errors.js';
import { createScriptedCaller } from '../../src/llm/scripted-model.js';
import type { ModelRequest } from '../../src/llm/types.js';
import type { CodifyEventBody } from '../../src/runs/events.js';

const pdf = new Uint8Array(Buffer.from('%PDF-1.4\n% a small stand-in for a paper\n%%EOF\n'));
const otherPdf = new Uint8Array(Buffer.from('%PDF-1.4\n% another paper\n%%EOF\n'));

const requestWith = (data: Uint8Array): ModelRequest => ({
  role: 'planner',
  system: 'You transcribe papers.',
  messages: [
    {
      role: 'user',
      content: 'Transcribe the attached paper.',
      files: [{ mediaType: 'application/pdf', data, filename: 'paper.pdf' }],
    },
  ],
});

const sha256 = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

describe('file parts in model calls', () => {
  it('reach the model as bytes and are recorded and logged by hash, not bytes', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'codify-files-'));
    const record = join(folder, 'session.jsonl');
    const events: CodifyEventBody[] = [];
    const run = {
      id: 'test',
      dir: folder,
      emit: (body: CodifyEventBody) => {
        events.push(body);
        return { ...body, seq: events.length, time: '' };
      },
    };
    const { caller, requests } = createScriptedCaller({ planner: ['# Paper'] }, { record, run });
    await caller.call(requestWith(pdf));
    const sent = requests.planner[0]?.messages[0];
    expect(sent?.content).toBe('Transcribe the attached paper.');
    expect(sent?.files?.[0]?.mediaType).toBe('application/pdf');
    expect(sent?.files?.[0]?.filename).toBe('paper.pdf');
    expect(Buffer.from(sent?.files?.[0]?.data ?? new Uint8Array()).equals(Buffer.from(pdf))).toBe(
      true,
    );

    const line = readFileSync(record, 'utf8');
    expect(line).not.toContain(Buffer.from(pdf).toString('base64'));
    const recorded = JSON.parse(line) as { messages: { files: unknown[] }[] };
    expect(recorded.messages[0]?.files).toEqual([
      {
        mediaType: 'application/pdf',
        filename: 'paper.pdf',
        sha256: sha256(pdf),
        size: pdf.length,
      },
    ]);
    const end = events.find((event) => event.type === 'llm-end');
    expect(end?.type === 'llm-end' ? end.messages[0]?.files?.[0]?.sha256 : '').toBe(sha256(pdf));

    // Replay matches on the hash: the same bytes pass, other bytes are a clear mismatch.
    const config = defaultConfig();
    config.roles.planner.models = [`replay:${record}`];
    const same = await createModelCaller(config, { env: {} }).call(requestWith(pdf));
    expect(same.text).toBe('# Paper');
    const error = await createModelCaller(config, { env: {} })
      .call(requestWith(otherPdf))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ReplayMismatchError);
    expect(String(error)).toContain('messages[0].files[0]');
  });

  it('text-only calls are recorded exactly as before (no files key)', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'codify-files-'));
    const record = join(folder, 'session.jsonl');
    const { caller } = createScriptedCaller({ worker: ['ok'] }, { record });
    await caller.call({ role: 'worker', messages: [{ role: 'user', content: 'hi' }] });
    expect(readFileSync(record, 'utf8')).toContain('"messages":[{"role":"user","content":"hi"}]');
  });

  it('exchange writes the file next to the prompt and names it there', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'codify-exchange-files-'));
    const config = defaultConfig();
    config.roles.planner.models = [`exchange:${folder}`];
    config.exchange = { pollMs: 20, stableMs: 50 };
    const pending = createModelCaller(config, { env: {} }).call(requestWith(pdf));
    const deadline = Date.now() + 5000;
    while (!existsSync(join(folder, '0001-planner.prompt.md')) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const attached = join(folder, '0001-planner.m1-1.pdf');
    expect(readFileSync(attached).equals(Buffer.from(pdf))).toBe(true);
    expect(readFileSync(join(folder, '0001-planner.prompt.md'), 'utf8')).toContain(attached);
    const json = JSON.parse(readFileSync(join(folder, '0001-planner.request.json'), 'utf8')) as {
      messages: { files: { path: string; sha256: string }[] }[];
    };
    expect(json.messages[0]?.files[0]).toMatchObject({ path: attached, sha256: sha256(pdf) });
    writeFileSync(join(folder, '0001-planner.response.md'), '# Transcribed\n');
    const answer = await pending;
    expect(answer.text).toBe('# Transcribed');
    expect(readdirSync(folder).filter((name) => name.endsWith('.pdf'))).toHaveLength(1);
  });
});
