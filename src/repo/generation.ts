import type { ModelCaller } from '../llm/types.js';
import { loadPrompt } from '../prompts/load-prompt.js';
import { extractCode } from './code-answer.js';
import type { Plan } from './planning.js';
import { pythonInterface } from './python-interface.js';
import { pythonSyntaxError } from './python-syntax.js';
import { isTestFile } from './requirements.js';
import { stableSystem } from './stable-context.js';
import { askValidated } from './structured-answer.js';

export interface GeneratedFile {
  path: string;
  content: string;
}

export interface EarlierFilesView {
  text: string;
  /** Files given as their interface only, because the full text no longer fit. */
  asInterface: string[];
}

/**
 * Earlier files for the next generation prompt, each under its name: in full while they
 * fit in `budgetChars`, otherwise the oldest become interfaces (signatures and docstrings)
 * until the whole fits. Files in `keepWhole` stay whole whatever the budget: a test file
 * needs the code that decides its expected values, not only signatures.
 */
export function earlierFilesView(
  files: GeneratedFile[],
  budgetChars: number,
  keepWhole: ReadonlySet<string> = new Set(),
  heading = 'Files already written (import from them by these names):',
): EarlierFilesView {
  if (files.length === 0) return { text: 'No files are written yet.', asInterface: [] };
  const interfaces = new Map(files.map((file) => [file.path, pythonInterface(file.content)]));
  const asInterface = new Set<string>();
  const render = () =>
    files
      .map((file) =>
        asInterface.has(file.path)
          ? `### ${file.path} (interface only: signatures and docstrings)\n\`\`\`python\n${interfaces.get(file.path) ?? ''}\n\`\`\``
          : `### ${file.path}\n\`\`\`python\n${file.content.trimEnd()}\n\`\`\``,
      )
      .join('\n\n');
  for (const file of files) {
    if (render().length <= budgetChars) break;
    if (!keepWhole.has(file.path)) asInterface.add(file.path);
  }
  const text = `${heading}\n\n${render()}`;
  return { text, asInterface: [...asInterface] };
}

const moduleName = (path: string) => (path.split('/').at(-1) ?? path).replace(/\.py$/, '');

/**
 * The earlier files a test file tests: the one its name points at (`test_model.py` →
 * `model.py`) and every one whose module its analysis or logic names as code.
 */
export function testedFiles(testPath: string, description: string, earlier: string[]): string[] {
  const target = moduleName(testPath)
    .replace(/^test_/, '')
    .replace(/_test$/, '');
  // Named as code (a file name, an import, a backticked module), not as a word of prose.
  const named = new Set(namedAsCode(description, earlier));
  return earlier.filter(
    (path) => !isTestFile(path) && (moduleName(path) === target || named.has(path)),
  );
}

/**
 * The earlier files (in `order` before `path`) that `path` depends on: those its logic
 * design lists under `imports`, and those its description names as code. Undefined when
 * the logic design lists no imports for it (a plan from before they were asked for): then
 * every earlier file is shown, as before.
 */
export function dependenciesOf(
  plan: Plan,
  path: string,
  description: string,
): string[] | undefined {
  const imports = plan.logic.fileLogic.find((file) => file.path === path)?.imports;
  if (imports === undefined) return undefined;
  const earlier = plan.logic.order.slice(0, Math.max(0, plan.logic.order.indexOf(path)));
  const named = new Set([...imports, ...namedAsCode(description, earlier)]);
  return earlier.filter((file) => named.has(file));
}

/** Every file `path` reaches through its dependencies, in order. */
function dependencyClosure(plan: Plan, path: string, direct: readonly string[]): string[] {
  const reached = new Set<string>();
  const visit = (file: string, deps: readonly string[] | undefined) => {
    for (const dep of deps ?? []) {
      if (reached.has(dep)) continue;
      reached.add(dep);
      visit(dep, plan.logic.fileLogic.find((item) => item.path === dep)?.imports);
    }
  };
  visit(path, direct);
  return plan.logic.order.filter((file) => reached.has(file));
}

/** The files whose module a text names as code: a file name, an import, a backticked module. */
function namedAsCode(description: string, files: readonly string[]): string[] {
  return files.filter((path) => {
    const escaped = moduleName(path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(
      `\\b${escaped}\\.py\\b|\\bfrom\\s+${escaped}\\s+import\\b|\\bimport\\s+${escaped}\\b|\`${escaped}\``,
    ).test(description);
  });
}

export interface GenerationOptions {
  interpreter: string;
  /** The target environment as the prompt states it: Python and package versions. */
  environment: string;
  earlierBudgetChars: number;
  maxAttempts?: number;
  onFile?: (file: GeneratedFile, view: EarlierFilesView) => void;
}

/** What the stages after planning share, the system prompt of each of their calls. */
export interface StageContext {
  /** The paper as the stages after planning see it (condensed). */
  paper: string;
  design: string;
  config: string;
  smokeConfig: string;
}

/**
 * One call per file in dependency order; each answer must hold Python that compiles. The
 * system prompt is the analysis stage's, byte for byte, so one cached prefix serves both.
 */
export async function generateFiles(
  models: ModelCaller,
  plan: Plan,
  context: StageContext,
  analyses: Map<string, string>,
  options: GenerationOptions,
): Promise<GeneratedFile[]> {
  const written: GeneratedFile[] = [];
  const system = stableSystem(context);
  for (const path of plan.logic.order.filter((file) => file.endsWith('.py'))) {
    const logic = plan.logic.fileLogic.find((file) => file.path === path)?.logic ?? '';
    const description = `${logic}\n${analyses.get(path) ?? ''}`;
    const keepWhole = isTestFile(path)
      ? testedFiles(
          path,
          description,
          written.map((file) => file.path),
        )
      : [];
    // Only the files it imports (and what they import): the rest is not its interface.
    const direct = dependenciesOf(plan, path, description);
    const shown =
      direct === undefined
        ? written
        : written.filter((file) =>
            [...dependencyClosure(plan, path, direct), ...keepWhole].includes(file.path),
          );
    const view =
      direct !== undefined && shown.length === 0
        ? { text: 'It imports no other file of the repository.', asInterface: [] }
        : earlierFilesView(
            shown,
            options.earlierBudgetChars,
            new Set(keepWhole),
            direct === undefined
              ? undefined
              : 'The files it imports from, and theirs (import from them by these names):',
          );
    const prompt = loadPrompt('repo-generate', {
      earlier: view.text,
      path,
      analysis: analyses.get(path) ?? '(no analysis)',
      environment: options.environment,
    });
    const result = await askForFile(models, system, prompt, path, `generate ${path}`, options);
    const file = { path, content: result.value };
    written.push(file);
    options.onFile?.(file, view);
  }
  return written;
}

/** Asks for one whole file until it holds Python that compiles and leaves nothing unimplemented. */
async function askForFile(
  models: ModelCaller,
  system: string,
  prompt: string,
  path: string,
  label: string,
  options: { interpreter: string; maxAttempts?: number },
): Promise<{ value: string }> {
  return askValidated(
    models,
    {
      role: 'planner',
      system,
      messages: [{ role: 'user', content: prompt }],
      label,
      expect: `The whole file ${path} in one \`\`\`python block.`,
    },
    async (text) => {
      const code = extractCode(text);
      if (code === undefined) return 'the answer holds no ```python block';
      if (/\b(TODO|NotImplementedError)\b/.test(code)) {
        return 'the file leaves parts unimplemented (TODO or NotImplementedError); implement every function';
      }
      const syntax = await pythonSyntaxError(options.interpreter, code);
      return syntax === undefined ? { value: code } : `the code does not compile: ${syntax}`;
    },
    {
      maxAttempts: options.maxAttempts,
      retryHint: `Give the whole of ${path} again in one \`\`\`python block.`,
    },
  );
}

/**
 * The self-check's fix: one file written again with the requirements a grader found unmet
 * in it, seeing every file of the repository (the others in full while they fit).
 */
export async function rewriteFile(
  models: ModelCaller,
  context: StageContext,
  files: GeneratedFile[],
  target: string,
  failed: string,
  options: { interpreter: string; earlierBudgetChars: number; maxAttempts?: number },
): Promise<GeneratedFile> {
  // The file being rewritten goes last and stays whole: the answer starts from its text.
  const ordered = [
    ...files.filter((file) => file.path !== target),
    ...files.filter((file) => file.path === target),
  ];
  const view = earlierFilesView(ordered, options.earlierBudgetChars, new Set([target]));
  const prompt = loadPrompt('repo-selfcheck-fix', { earlier: view.text, path: target, failed });
  const system = stableSystem(context);
  const result = await askForFile(
    models,
    system,
    prompt,
    target,
    `self-check fix ${target}`,
    options,
  );
  return { path: target, content: result.value };
}

/**
 * The analyses the next file's analysis builds on: those of the files it imports from, or,
 * for a plan that lists no imports, every analysis written so far.
 */
function earlierAnalyses(
  analyses: Map<string, string>,
  dependencies: string[] | undefined,
): string {
  if (dependencies === undefined) {
    if (analyses.size === 0) return 'It is the first file analysed; no analyses are written yet.';
    const parts = [...analyses].map(([path, text]) => `### ${path}\n${text}`);
    return `The analyses of the files before it, whose names it may import:\n\n${parts.join('\n\n')}`;
  }
  const parts = dependencies
    .filter((path) => analyses.has(path))
    .map((path) => `### ${path}\n${analyses.get(path) ?? ''}`);
  if (parts.length === 0) return 'It imports from no other file of the repository.';
  return `The analyses of the files it imports from (use their names as they give them):\n\n${parts.join('\n\n')}`;
}

/**
 * Analysis: one call per file, the detailed logic of that file within the design, each
 * seeing the analyses of the files it imports from. Its purpose and logic are in the
 * design of the system prompt, so they are not sent again.
 */
export async function analyzeFiles(
  models: ModelCaller,
  plan: Plan,
  paperText: string,
  design: string,
  configs: { config: string; smokeConfig: string },
  options: { maxAttempts?: number } = {},
): Promise<Map<string, string>> {
  const analyses = new Map<string, string>();
  const system = stableSystem({ paper: paperText, design, ...configs });
  for (const path of plan.logic.order.filter((file) => file.endsWith('.py'))) {
    const logic = plan.logic.fileLogic.find((file) => file.path === path)?.logic ?? '';
    const result = await askValidated(
      models,
      {
        role: 'planner',
        system,
        messages: [
          {
            role: 'user',
            content: loadPrompt('repo-analysis', {
              path,
              earlier: earlierAnalyses(analyses, dependenciesOf(plan, path, logic)),
            }),
          },
        ],
        label: `analyze ${path}`,
        expect: `Markdown: the detailed logic of ${path}.`,
      },
      (text) =>
        text.trim().length < 40 ? 'the analysis is empty or too short' : { value: text.trim() },
      { maxAttempts: options.maxAttempts },
    );
    analyses.set(path, result.value);
  }
  return analyses;
}
