import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/default-config.js';
import { createModelCaller } from '../../src/llm/create-model-caller.js';
import { createScriptedCaller } from '../../src/llm/scripted-model.js';
import { readCommandOutput } from '../../src/cli/commands/read.js';
import { UsageError } from '../../src/errors/codify-error.js';
import { PaperError } from '../../src/reader/paper-error.js';
import { readPaperWithModel } from '../../src/reader/read-paper-with-model.js';
import { runExplore } from '../../src/explore/run-explore.js';
import { runPaper } from '../../src/repo/run-paper.js';
import type { Run } from '../../src/runs/run.js';
import { readEvents } from '../../src/runs/read-events.js';
import type { CodifyEventBody } from '../../src/runs/events.js';
import { startFakeServer, type FakeServer } from '../llm/fake-provider-server.js';
import { wireFormats } from '../llm/provider-wire-formats.js';

const pdfPath = join(import.meta.dirname, '..', 'fixtures', 'pdflatex', 'mixup-tabular.pdf');
const pdfBase64 = readFileSync(pdfPath).toString('base64');
const texPath = join(
  import.meta.dirname,
  '..',
  '..',
  'examples',
  'papers',
  'mixup-tabular',
  'paper.tex',
);

/** What a model reading the PDF answers: the paper in Markdown with LaTeX math. */
const transcription = `# Mixup for Tabular Data

A. Author, B. Author

## Abstract

We train classifiers on convex combinations of pairs of examples and their labels, and
measure how this regularizer changes accuracy on small tabular data sets.

## 1 Method

For two examples $(x_i, y_i)$ and $(x_j, y_j)$ we draw $\\lambda \\sim \\mathrm{Beta}(\\alpha, \\alpha)$ and train on

$$
\\tilde{x} = \\lambda x_i + (1 - \\lambda) x_j, \\quad \\tilde{y} = \\lambda y_i + (1 - \\lambda) y_j \\tag{1}
$$

## 2 Experiments

We compare empirical risk minimization with mixup on the breast cancer data set, with the
same network, optimizer and number of epochs for both, over five random seeds each.
`;

interface Json {
  [key: string]: unknown;
}
const asJson = (value: unknown): Json =>
  typeof value === 'object' && value !== null ? (value as Json) : {};
const list = (value: unknown): unknown[] => (Array.isArray(value) ? (value as unknown[]) : []);

/** The PDF as each provider's wire format carries it, or undefined when it is not there. */
const pdfOnTheWire: Record<string, (body: unknown) => string | undefined> = {
  anthropic: (body) => {
    const parts = list(asJson(list(asJson(body).messages).at(-1)).content);
    const document = asJson(parts.find((part) => asJson(part).type === 'document'));
    const source = asJson(document.source);
    return source.type === 'base64' && source.media_type === 'application/pdf'
      ? String(source.data)
      : undefined;
  },
  google: (body) => {
    const parts = list(asJson(list(asJson(body).contents).at(-1)).parts);
    const inline = asJson(asJson(parts.find((part) => 'inlineData' in asJson(part))).inlineData);
    return inline.mimeType === 'application/pdf' ? String(inline.data) : undefined;
  },
  openai: (body) => {
    const parts = list(asJson(list(asJson(body).input).at(-1)).content);
    const file = asJson(parts.find((part) => asJson(part).type === 'input_file'));
    const data = typeof file.file_data === 'string' ? file.file_data : '';
    const prefix = 'data:application/pdf;base64,';
    return data.startsWith(prefix) ? data.slice(prefix.length) : undefined;
  },
};

const servers: FakeServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe.each(wireFormats.filter((format) => format.provider in pdfOnTheWire))(
  '--paper-reader model over $provider',
  (format) => {
    it('sends the PDF as a file part and reads the Markdown answer as the paper', async () => {
      const server = await startFakeServer([
        { kind: 'answer', body: format.answer(transcription) },
      ]);
      servers.push(server);
      const config = defaultConfig();
      config.roles.planner.models = [`${format.provider}:${format.model}`];
      config.providers[format.provider] = { baseURL: `${server.origin}${format.basePath}` };
      const env = format.keyVariable === undefined ? {} : { [format.keyVariable]: 'test-key' };
      const events: CodifyEventBody[] = [];
      const caller = createModelCaller(config, {
        env,
        run: {
          id: 'test',
          dir: '/nonexistent',
          emit: (body) => {
            events.push(body);
            return { ...body, seq: events.length, time: '' };
          },
        },
      });
      const document = await readPaperWithModel(pdfPath, caller, {
        emit: (event) => events.push(event),
      });

      expect(server.received).toHaveLength(1);
      const body = server.received[0]?.body;
      expect(pdfOnTheWire[format.provider]?.(body)).toBe(pdfBase64);
      expect(format.lastUserText(body)).toContain('Transcribe all of it as Markdown');

      expect(document.title).toBe('Mixup for Tabular Data');
      expect(document.source).toEqual({ format: 'pdf', path: pdfPath });
      expect(document.sections.map((section) => section.heading)).toEqual([
        'Method',
        'Experiments',
      ]);
      expect(document.sections[0]?.equations[0]).toContain('\\tilde{x} = \\lambda x_i');
      expect(document.abstract).toContain('convex combinations');

      const end = events.find((event) => event.type === 'llm-end');
      expect(end?.type === 'llm-end' && end.usage.inputTokens).toBe(120);
      expect(events.find((event) => event.type === 'paper-read')).toMatchObject({
        attempts: 1,
        sections: 2,
        equations: 1,
      });
    });
  },
);

describe('--paper-reader model', () => {
  it('re-asks a garbled answer once, with the file still attached, then reads the paper', async () => {
    const { caller, requests } = createScriptedCaller({
      planner: ['I cannot open attachments.', `\`\`\`markdown\n${transcription}\n\`\`\``],
    });
    const document = await readPaperWithModel(pdfPath, caller);
    expect(document.title).toBe('Mixup for Tabular Data');
    const second = requests.planner[1];
    expect(second?.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(second?.messages[0]?.files?.[0]?.mediaType).toBe('application/pdf');
    expect(second?.messages[2]?.content).toContain('no Markdown headings');
  });

  it('fails clearly after two unusable answers', async () => {
    const { caller } = createScriptedCaller({ planner: ['', 'Sorry.'] });
    const error = await readPaperWithModel(pdfPath, caller).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PaperError);
    expect(String(error)).toMatch(/did not transcribe .*--paper-reader local/);
  });

  it('refuses a planner whose provider cannot read PDFs, before any call', async () => {
    const result = await readCommandOutput(pdfPath, {
      paperReader: 'model',
      model: 'ollama:llama3.2',
    });
    expect(result.exitCode).toBe(2);
    expect(result.err).toContain('--paper-reader model');
    expect(result.err).toContain('ollama');
    expect(result.err).toContain('--paper-reader local');
  });

  it('refuses a paper that is not a PDF, naming the flag', async () => {
    const result = await readCommandOutput(texPath, {
      paperReader: 'model',
      model: 'anthropic:claude-sonnet-4-5',
    });
    expect(result.exitCode).toBe(2);
    expect(result.err).toContain('--paper-reader model reads PDFs only');
  });

  it('codify paper reads the PDF with the planner inside the run, logged by hash', async () => {
    let started: Run | undefined;
    const error = await runPaper(
      { paperPath: pdfPath, paperReader: 'model', sandbox: 'none', skipVerify: true },
      {
        runsRoot: mkdtempSync(join(tmpdir(), 'codify-paper-reader-')),
        onRun: (run) => {
          started = run;
        },
      },
      { caller: (run) => createScriptedCaller({ planner: ['', 'Sorry.'] }, { run }).caller },
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PaperError);
    expect(started).toBeDefined();
    const { events } = readEvents(started?.dir ?? '');
    const calls = events.filter((event) => event.type === 'llm-end');
    expect(calls).toHaveLength(2);
    const sha256 = createHash('sha256').update(readFileSync(pdfPath)).digest('hex');
    expect(calls[0]?.type === 'llm-end' && calls[0].messages[0]?.files?.[0]?.sha256).toBe(sha256);
  });

  it('codify explore reads each PDF with the planner inside the run', async () => {
    let runDir = '';
    const settings = {
      paperPaths: [pdfPath],
      ideas: 1,
      reviewers: 1,
      refineRounds: 0,
      budgetMinutes: 5,
      gpu: false,
      paperMaxChars: 60_000,
      paperReader: 'model' as const,
    };
    const runsRoot = mkdtempSync(join(tmpdir(), 'codify-explore-reader-'));
    // The planner transcribes the paper, then has no answer for the analysis: the run stops there.
    const error = await runExplore({
      settings,
      models: (run) => createScriptedCaller({ planner: [transcription] }, { run }).caller,
      host: {
        runsRoot,
        onRun: (run) => {
          runDir = run.dir;
        },
      },
    }).catch((caught: unknown) => caught);
    expect(String(error)).toContain('has no answer for call 2');
    const { events } = readEvents(runDir);
    expect(events.find((event) => event.type === 'paper-read')).toMatchObject({
      sections: 2,
      equations: 1,
    });
    const analysis = events.filter((event) => event.type === 'llm-end');
    expect(analysis).toHaveLength(1);
    const refused = await runExplore({
      settings: { ...settings, paperPaths: [texPath] },
      models: (run) => createScriptedCaller({}, { run }).caller,
      host: { runsRoot },
    }).catch((caught: unknown) => caught);
    // A LaTeX paper with --paper-reader model is a flag that does not fit: exit code 2.
    expect(refused).toBeInstanceOf(UsageError);
  });
});
