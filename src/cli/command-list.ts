import type { Command } from 'commander';

/** A command as `codify --help` lists it, and how to load the module that registers it. */
export interface CommandEntry {
  name: string;
  /** Its arguments, as commander writes them (`<task> [script-args...]`). */
  arguments: string;
  description: string;
  /** Imports the command's module only now, and returns its register function. */
  load: () => Promise<(program: Command) => void>;
}

/**
 * Every codify command. `main.ts` loads only the module of the command that runs, so
 * `codify --help` and `codify runs` do not wait for the pipelines' dependencies (vega,
 * BullMQ, pdf.js…); a test checks each entry against the command its module registers.
 */
export const commandList: readonly CommandEntry[] = [
  {
    name: 'doctor',
    arguments: '',
    description: 'check Node, bubblewrap, Python interpreters and provider keys',
    load: async () => (await import('./commands/doctor.js')).registerDoctorCommand,
  },
  {
    name: 'implement',
    arguments: '<task>',
    description:
      "implement a task folder's methodology on its starter code with the research agent",
    load: async () => (await import('./commands/implement.js')).registerImplementCommand,
  },
  {
    name: 'resume',
    arguments: '<run>',
    description:
      'continue a run that was killed, stopped or failed: an implement run after its last completed step, a paper run or an exploration after its finished stages',
    load: async () => (await import('./commands/resume.js')).registerResumeCommand,
  },
  {
    name: 'replay',
    arguments: '<run>',
    description:
      're-run a run with the model answers from its own event log and real execution, as a new run, and report where it diverges',
    load: async () => (await import('./commands/replay.js')).registerReplayCommand,
  },
  {
    name: 'paper',
    arguments: '<paper>',
    description:
      'turn a paper (PDF, LaTeX, Markdown or text) into a repository: plan, analyze, generate, then run and repair it',
    load: async () => (await import('./commands/paper.js')).registerPaperCommand,
  },
  {
    name: 'read',
    arguments: '<paper>',
    description:
      'print the paper as codify reads it (Markdown with $$ equations, or --json), to check the extraction before a run',
    load: async () => (await import('./commands/read.js')).registerReadCommand,
  },
  {
    name: 'explore',
    arguments: '[papers...]',
    description:
      'research ideas from papers: problem analysis with checked quotes, idea cards, judge reviews, refinement and novelty checks',
    load: async () => (await import('./commands/explore.js')).registerExploreCommand,
  },
  {
    name: 'check',
    arguments: '<task> [script-args...]',
    description:
      'validate a task folder and run its starter code once in the sandbox, before spending anything on models',
    load: async () => (await import('./commands/check.js')).registerCheckCommand,
  },
  {
    name: 'runs',
    arguments: '',
    description: 'list recorded runs, newest first: mode, status, steps, tokens, cost, age',
    load: async () => (await import('./commands/runs.js')).registerRunsCommand,
  },
  {
    name: 'show',
    arguments: '<run>',
    description: "print one run's timeline: steps, LLM calls, actions, executions, guards, budgets",
    load: async () => (await import('./commands/show.js')).registerShowCommand,
  },
  {
    name: 'mcp',
    arguments: '',
    description: 'serve codify to MCP clients (other agents) over stdio',
    load: async () => (await import('./commands/mcp.js')).registerMcpCommand,
  },
  {
    name: 'eval',
    arguments: '<suite>',
    description:
      "run a suite (tasks, papers and explorations × strategies × models × trials) and report the seed papers' metrics",
    load: async () => (await import('./commands/eval.js')).registerEvalCommand,
  },
  {
    name: 'ui',
    arguments: '',
    description: 'serve the web app: every run, live, in the browser (127.0.0.1 and a token)',
    load: async () => (await import('./commands/ui.js')).registerUiCommand,
  },
  {
    name: 'worker',
    arguments: '',
    description: 'take runs of `codify eval --queue` from the queue and run them, until stopped',
    load: async () => (await import('./commands/worker.js')).registerWorkerCommand,
  },
];

/** The command an argv names (`codify help X` names X), if it is one of codify's. */
export function commandNamed(argv: readonly string[]): CommandEntry | undefined {
  const words = argv.filter((word) => !word.startsWith('-'));
  const name = words[0] === 'help' ? words[1] : words[0];
  return commandList.find((entry) => entry.name === name);
}
