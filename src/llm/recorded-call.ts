import type { ChatMessage, RoleName, Usage } from './types.js';

/** One line of a recording (`--record FILE`), as `replay:FILE` reads it back. */
export interface RecordedCall {
  /** 1-based number of the call in the session. */
  call: number;
  role: RoleName;
  /** The spec that answered. */
  model: string;
  system?: string;
  messages: ChatMessage[];
  text: string;
  usage: Usage;
  /** Dollars as paid when recorded; null when the price was unknown. */
  costUsd?: number | null;
}
