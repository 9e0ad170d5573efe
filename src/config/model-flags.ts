/** The flags every model-using command shares, as commander hands them over. */
export interface ModelFlags {
  model?: string;
  /** Comma-separated cascade. */
  planner?: string;
  expert?: string;
  worker?: string;
  summarizer?: string;
  judge?: string;
  config?: string;
  record?: string;
  timeoutMs?: number;
}

/** Picks the model flags out of a command's parsed options. */
export function modelFlagsFrom(options: Record<string, unknown>): ModelFlags {
  const flags: ModelFlags = {};
  for (const key of [
    'model',
    'planner',
    'expert',
    'worker',
    'summarizer',
    'judge',
    'config',
    'record',
  ] as const) {
    const value = options[key];
    if (typeof value === 'string') flags[key] = value;
  }
  if (typeof options.timeoutMs === 'number') flags.timeoutMs = options.timeoutMs;
  return flags;
}
