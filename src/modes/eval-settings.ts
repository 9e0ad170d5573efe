import { z } from 'zod';
import { setting } from './setting-meta.js';

/**
 * `codify eval SUITE`: the settings of an evaluation that are not the suite's own. Only
 * the CLI starts an evaluation today (MCP, HTTP and the web form start runs of the modes
 * in `modes.ts`); its flags are derived from this schema, so a front end added later
 * takes the same settings.
 */
export const evalSettings = z.object({
  keepFailures: setting(z.boolean().optional(), {
    flag: '--keep-failures',
    help: 'leave runs that failed (an error ended them before they had a result) as they are, scored as failures, instead of trying them again',
    group: 'run',
  }),
});

export type EvalSettings = z.infer<typeof evalSettings>;
