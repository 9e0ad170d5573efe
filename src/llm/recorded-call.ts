import type { RoleName, StoredMessage, Usage } from './types.js';

/** One line of a recording (`--record FILE`), as `replay:FILE` reads it back. */
export interface RecordedCall {
  /** 1-based number of the call in the session. */
  call: number;
  role: RoleName;
  /** The spec that answered. */
  model: string;
  system?: string;
  /** Files by sha256, size and media type (see StoredFile), not their bytes. */
  messages: StoredMessage[];
  text: string;
  usage: Usage;
  /** Dollars as paid when recorded; null when the price was unknown. */
  costUsd?: number | null;
}
