import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPrompt } from '../prompts/load-prompt.js';
import type { ExchangeSettings } from '../config/codify-config.js';
import type { AnswerRequest, AnswerResult, Answerer } from './answerer.js';
import { estimateTokens } from './estimate-tokens.js';
import { fence } from './markdown-fence.js';
import { storedMessages } from './stored-messages.js';
import { waitForCompleteFile } from './wait-for-file.js';

/** The files of one exchange, named `NNNN-<role>.*` inside the folder. */
export interface ExchangeFiles {
  number: number;
  prompt: string;
  request: string;
  response: string;
}

const numbered = /^(\d{4,})-/;

/** The highest NNNN already used in the folder, so a resumed run never overwrites. */
export function highestExchangeNumber(folder: string): number {
  let highest = 0;
  for (const entry of readdirSync(folder)) {
    const match = numbered.exec(entry);
    if (match?.[1] !== undefined) highest = Math.max(highest, Number(match[1]));
  }
  return highest;
}

function writeAtomically(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

/**
 * `exchange:DIR`: each request becomes `DIR/NNNN-<role>.prompt.md` (for people) and
 * `DIR/NNNN-<role>.request.json` (for programs); the answer is read from
 * `DIR/NNNN-<role>.response.md` once it is complete. Usage is estimated, cost is 0.
 */
export class ExchangeAnswerer implements Answerer {
  readonly remote = false;
  private lastNumber = 0;
  /** The number of the first request of each content, to tell a repeated one apart. */
  private readonly firstOfContent = new Map<string, number>();

  constructor(
    readonly folder: string,
    private readonly settings: ExchangeSettings,
  ) {}

  async answer(request: AnswerRequest): Promise<AnswerResult> {
    const files = this.writeRequest(request);
    await waitForCompleteFile(files.response, {
      signal: request.signal,
      pollMs: this.settings.pollMs,
      stableMs: this.settings.stableMs,
      ...(this.settings.timeoutMs === undefined ? {} : { timeoutMs: this.settings.timeoutMs }),
    });
    const text = readFileSync(files.response, 'utf8').replace(/\s+$/, '');
    const sent = [request.system ?? '', ...request.messages.map((message) => message.content)];
    return {
      text,
      usage: {
        inputTokens: estimateTokens(sent.join('')),
        outputTokens: estimateTokens(text),
        cachedInputTokens: 0,
      },
      costUsd: 0,
    };
  }

  /** Writes the JSON, then the Markdown prompt, each by rename so a watcher sees whole files. */
  writeRequest(request: AnswerRequest): ExchangeFiles {
    mkdirSync(this.folder, { recursive: true });
    const number = Math.max(this.lastNumber, highestExchangeNumber(this.folder)) + 1;
    this.lastNumber = number;
    const stem = `${String(number).padStart(4, '0')}-${request.role}`;
    const files: ExchangeFiles = {
      number,
      prompt: join(this.folder, `${stem}.prompt.md`),
      request: join(this.folder, `${stem}.request.json`),
      response: join(this.folder, `${stem}.response.md`),
    };
    const attached = this.writeFiles(request, stem);
    const json = {
      number,
      callId: request.callId,
      role: request.role,
      model: request.spec,
      label: request.label ?? null,
      system: request.system ?? null,
      messages: storedMessages(request.messages).map((message, index) =>
        message.files === undefined
          ? message
          : {
              ...message,
              files: message.files.map((file, fileIndex) => ({
                ...file,
                path: attached[index]?.[fileIndex] ?? '',
              })),
            },
      ),
      temperature: request.temperature,
      maxOutputTokens: request.maxOutputTokens ?? null,
      expect: request.expect ?? null,
      response: files.response,
    };
    writeAtomically(files.request, `${JSON.stringify(json, null, 2)}\n`);
    const messages = request.messages
      .map(
        (message, index) =>
          `### ${index + 1}. ${message.role}\n\n${fence(message.content)}${attachedNote(attached[index] ?? [])}`,
      )
      .join('\n\n');
    const prompt = loadPrompt('exchange-prompt', {
      number: String(number),
      role: request.role,
      label: request.label ?? `call ${request.callId}`,
      expect: request.expect ?? 'a plain-text answer to the last message of the conversation.',
      responsePath: files.response,
      responseFile: `${stem}.response.md`,
      requestFile: `${stem}.request.json`,
      temperature: String(request.temperature),
      repeated: this.repeatedNote(request, number),
      system: request.system === undefined ? '(none)' : fence(request.system),
      messageCount:
        request.messages.length === 1 ? '1 message' : `${request.messages.length} messages`,
      messages,
    });
    writeAtomically(files.prompt, prompt);
    return files;
  }

  /**
   * For a request identical to an earlier one (a judge asked several times for independent
   * reviews): a line saying so, since a model samples each answer anew at a temperature above
   * 0, and an answer copied from the earlier one would make the repeats pointless.
   */
  private repeatedNote(request: AnswerRequest, number: number): string {
    const content = JSON.stringify([
      request.role,
      request.system ?? '',
      request.messages.map((m) => [m.role, m.content]),
    ]);
    const first = this.firstOfContent.get(content);
    if (first === undefined) {
      this.firstOfContent.set(content, number);
      return '';
    }
    return request.temperature > 0
      ? `\n\nThis request is identical to request ${String(first).padStart(4, '0')}: codify asks again for an independent answer, which a model samples anew at this temperature. Answer it afresh rather than copy the earlier answer.`
      : `\n\nThis request is identical to request ${String(first).padStart(4, '0')}.`;
  }

  /**
   * Writes each message's files next to the prompt (`NNNN-<role>.m<message>-<k>.<ext>`) so the
   * person or agent answering can open them; returns their paths, per message.
   */
  private writeFiles(request: AnswerRequest, stem: string): string[][] {
    return request.messages.map((message, index) =>
      (message.files ?? []).map((file, fileIndex) => {
        const path = join(
          this.folder,
          `${stem}.m${index + 1}-${fileIndex + 1}${extensionFor(file.mediaType)}`,
        );
        writeFileSync(path, file.data);
        return path;
      }),
    );
  }
}

const extensions: Record<string, string> = {
  'application/pdf': '.pdf',
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'text/plain': '.txt',
};

const extensionFor = (mediaType: string): string => extensions[mediaType] ?? '.bin';

/** The line under a message that names its attached files, for whoever answers by hand. */
function attachedNote(paths: string[]): string {
  if (paths.length === 0) return '';
  const list = paths.map((path) => `- ${path}`).join('\n');
  return `\n\nAttached to this message (open ${paths.length === 1 ? 'it' : 'them'}; the model would read ${paths.length === 1 ? 'it' : 'them'} with the text):\n\n${list}`;
}
