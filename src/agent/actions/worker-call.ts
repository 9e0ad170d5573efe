import { loadPrompt } from '../../prompts/load-prompt.js';
import type { ChatMessage, ModelAnswer } from '../../llm/types.js';
import type { ActionContext } from './types.js';

export interface WorkerRequest {
  /** prompts/<prompt>.md, the worker's persona and instructions. */
  prompt: string;
  slots?: Record<string, string>;
  messages: ChatMessage[];
  expect: string;
  label: string;
}

/** One call to the `worker` role; its temperature comes from the configuration. */
export function callWorker(context: ActionContext, request: WorkerRequest): Promise<ModelAnswer> {
  return context.models.call({
    role: 'worker',
    system: loadPrompt(request.prompt, request.slots ?? {}),
    messages: request.messages,
    expect: request.expect,
    label: request.label,
    ...(context.signal ? { signal: context.signal } : {}),
  });
}

/** A single user message. */
export function userMessage(content: string): ChatMessage[] {
  return [{ role: 'user', content }];
}
