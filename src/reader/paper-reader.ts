import { parseModelSpec } from '../llm/model-spec.js';

/** How a paper is read: by codify's own readers (default), or by the planner model from its PDF. */
export const paperReaders = ['local', 'model'] as const;
export type PaperReader = (typeof paperReaders)[number];

/**
 * Providers whose AI SDK package sends a PDF as a file the model reads: Anthropic (a
 * `document` block), Google (`inlineData`), OpenAI (Responses `input_file`). The local
 * providers pass the file on: exchange writes it next to the prompt, replay matches its
 * hash, scripted hands it to the test. Ollama's provider drops file parts silently, and
 * openai-compatible servers (vLLM, llama.cpp, LM Studio) do not read PDF file parts.
 */
const readsPdfs = new Set(['anthropic', 'google', 'openai', 'exchange', 'replay', 'scripted']);

/**
 * Why the planner spec cannot read a PDF itself (a message naming the flag and the fix),
 * or undefined when it can.
 */
export function modelPdfReaderProblem(plannerSpec: string | undefined): string | undefined {
  if (plannerSpec === undefined) {
    return '--paper-reader model needs a planner model: pass --model SPEC (or --planner SPEC) with an anthropic:, google: or openai: model, or use --paper-reader local';
  }
  const spec = parseModelSpec(plannerSpec);
  if (readsPdfs.has(spec.provider)) return undefined;
  return `--paper-reader model: the planner ${spec.text} cannot read a PDF (the ${spec.provider} provider does not take PDF file parts). Give an anthropic:, google: or openai: planner (--planner SPEC), or read the PDF with codify's own reader (--paper-reader local, the default)`;
}
