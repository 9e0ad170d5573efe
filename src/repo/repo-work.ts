import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ModelCaller } from '../llm/types.js';
import type { Run } from '../runs/run.js';
import type { Stages, StageStore } from '../runs/stages.js';
import type { Sandbox, SandboxLimits } from '../sandbox/types.js';
import { commitStage } from './git.js';
import type { Plan } from './planning.js';
import type { TargetEnvironment } from './target-environment.js';
import type { Repairer } from './verify.js';

export interface PaperToRepoOptions {
  /** The paper as prompt text (full, or fitted to the context with summaries). */
  paperText: string;
  /** The full text, for checking config quotes; defaults to paperText. */
  fullPaperText?: string;
  title: string;
  models: ModelCaller;
  run: Run;
  /** The run's stages (the lifecycle's); default a new list over `run` and `signal`. */
  stages?: Stages;
  /** Ctrl-C, SIGTERM, Stop: cancels the model call, smoke run or install in flight. */
  signal?: AbortSignal;
  sandbox: Sandbox;
  /** The interpreter for syntax checks (any Python 3 will do). */
  interpreter: string;
  /**
   * The interpreter for the smoke run, chosen for the packages the code needs to run (not
   * its tests'): the best candidate and the modules it lacks, or why none can run at all.
   * Default: `interpreter`, assumed to lack nothing.
   */
  /**
   * Of the interpreters the run may use, the one with the most of the usual packages and
   * their versions: what planning is told. Default: none, and planning names no environment.
   */
  usualInterpreter?: () => Promise<TargetEnvironment | undefined>;
  chooseInterpreter?: (
    requires: string[],
  ) => Promise<{ path: string; missing: string[] } | { problem: string }>;
  /**
   * Where the interpreter lacks run requirements, make a virtual environment in the run
   * folder and pip install them (on the host, outside the sandbox). Default true.
   */
  installMissing?: boolean;
  /** Environment variables for that pip install (an index, a proxy, a wheel folder). */
  pipEnvironment?: Record<string, string | undefined>;
  limits: SandboxLimits;
  /** Where the repository is written; default `<run>/repo`. Must be absent or empty. */
  outDir?: string;
  selfRefine: boolean;
  /**
   * After generation, grade the code against the checklist's Code Development leaves and
   * rewrite the files of the unmet ones once (`codify paper` does by default). Default false.
   */
  selfCheck?: boolean;
  /**
   * Characters of earlier files given in full before switching to interfaces: in a file's
   * request (the files it imports; `importsBudgetChars` by default), and in the README's
   * and the self-check's rewrite's view of the repository (`repositoryBudgetChars`).
   */
  earlierBudgetChars?: number;
  /** Agent steps the repair may use; 0 turns repair off. */
  repairBudgetSteps: number;
  /** Builds the repairer for a repository; the research agent in practice. */
  makeRepairer?: (repoDir: string, plan: Plan, interpreter: string) => Repairer;
  gpu?: boolean;
  /**
   * Let the smoke run, the tests and repair reach the network (`--network`), e.g. to fetch
   * data; default false: the smoke configuration must run offline.
   */
  network?: boolean;
  /** Stop before the smoke run (the repository is still written and committed). */
  skipVerify?: boolean;
}

/** What every stage of the paper pipeline works with: the repository being written and the run. */
export interface RepoWork {
  options: PaperToRepoOptions;
  run: Run;
  stages: Stages;
  /** The run's caller, each request carrying the stop signal. */
  models: ModelCaller;
  repoDir: string;
  /** Whether git works here: each stage is then one commit. */
  git: boolean;
  /** The commit each stage made (none when nothing changed or git is unavailable). */
  commits: Map<string, string | undefined>;
}

/** Writes a file of the repository and announces it. */
export function writeRepoFile(work: RepoWork, path: string, content: string, kind: string): void {
  const target = join(work.repoDir, path);
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, content);
  work.run.emit({ type: 'artifact-write', path: target, kind });
}

interface Committed<T> {
  value: T;
  commit?: string;
}

/**
 * A stage that writes the repository: its body, then one git commit of what it wrote. The
 * value and the commit are stored together, so a resumed run skips the stage (its files are
 * in that commit) and the report still names the commit. `codec` for values that are not
 * plain JSON.
 */
export async function committedStage<T>(
  work: RepoWork,
  name: string,
  message: string,
  body: () => Promise<T>,
  codec?: { save: (value: T) => unknown; load: (stored: unknown) => T },
): Promise<T> {
  const store: StageStore<Committed<T>> | undefined =
    codec === undefined
      ? undefined
      : {
          save: (done) => ({ ...done, value: codec.save(done.value) }),
          load: (stored) => {
            const done = stored as Committed<unknown>;
            return { ...done, value: codec.load(done.value) };
          },
        };
  const done = await work.stages.run(
    name,
    async (): Promise<Committed<T>> => {
      const value = await body();
      const commit = work.git ? await commitStage(work.repoDir, `${name}: ${message}`) : undefined;
      return commit === undefined ? { value } : { value, commit };
    },
    {
      describe: (result) =>
        result.commit !== undefined
          ? `commit ${result.commit}`
          : work.git
            ? 'nothing new to commit'
            : 'not committed (no git)',
      ...(store === undefined ? {} : { store }),
    },
  );
  work.commits.set(name, done.commit);
  return done.value;
}

/**
 * What a file's request shows whole of the files it imports: past this, the oldest become
 * interfaces (signatures, docstrings, constants), which is what a caller needs; a test
 * keeps the files it tests whole whatever the budget.
 */
export const importsBudgetChars = 8_000;

/** What the README's and the self-check's rewrite's view of the repository shows whole. */
export const repositoryBudgetChars = 24_000;
