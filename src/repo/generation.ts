import type { ModelCaller } from '../llm/types.js';
import { loadPrompt } from '../prompts/load-prompt.js';
import { extractCode } from './code-answer.js';
import type { Plan } from './planning.js';
import { pythonInterface } from './python-interface.js';
import { pythonSyntaxError } from './python-syntax.js';
import { isTestFile } from './requirements.js';
import { experimentsSection } from './later-context.js';
import { paperSections } from './paper-sections.js';
import { stableSystem, type SharedContext } from './stable-context.js';
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
  onFile?: (file: WrittenFile, view: EarlierFilesView) => void;
}

/** The paper as the write stage reads it: whole (for the sections a file names) and condensed. */
export interface PaperTexts {
  full: string;
  /** The condensed paper, for a file whose plan names no section (a plan from before they were asked for). */
  condensed: string;
}

export interface WrittenFile extends GeneratedFile {
  /** The analysis the answer gave before the code (empty when it gave none). */
  analysis: string;
}

/**
 * The part of the paper a file's request shows: the sections its logic design names; none
 * when it names none; the condensed paper when its plan does not say (or no name matches).
 */
export function paperForFile(plan: Plan, path: string, paper: PaperTexts): string {
  const names = plan.logic.fileLogic.find((file) => file.path === path)?.paperSections;
  if (names !== undefined && names.length === 0)
    return 'The design names no section of the paper for it.';
  const found = names === undefined ? undefined : paperSections(paper.full, names);
  if (found !== undefined && found.text.length > 0) {
    const unmatched =
      found.unmatched.length === 0
        ? ''
        : ` (${found.unmatched.map((name) => `"${name}"`).join(', ')} matched no heading of the paper)`;
    return `The paper's sections the design names for it${unmatched}:\n\n<paper-sections>\n${found.text}\n</paper-sections>`;
  }
  const why =
    names === undefined
      ? 'the design names no sections for this file'
      : `the sections the design names (${names.join(', ')}) match no heading`;
  return `The paper, condensed (${why}):\n\n<paper>\n${paper.condensed.trim()}\n</paper>`;
}

/** The analysis before the code, and the code: the longest ```python block of the answer. */
export function splitWrittenFile(text: string): { analysis: string; code: string } | undefined {
  const code = extractCode(text);
  if (code === undefined) return undefined;
  const blocks = [...text.matchAll(/```python[^\n]*\n([\s\S]*?)```/gi)];
  const longest = blocks.sort((a, b) => (b[1] ?? '').length - (a[1] ?? '').length)[0];
  const before = longest === undefined ? '' : text.slice(0, longest.index);
  // A closing heading over the code ("## Code") belongs to neither.
  const analysis = before.replace(
    /\n#{1,4}\s*(the\s+)?(code|file|implementation)\b[^\n]*\s*$/i,
    '',
  );
  return { analysis: analysis.trim(), code };
}

/**
 * The write stage: one call per file in dependency order, which gives the file's analysis
 * and then the whole file; the code must compile. Each request holds the file's logic, the
 * paper's sections it implements and the files it imports (the experiment list too for the
 * entry point); the system prompt is the same for every file, the README and the
 * self-check's rewrite, so one cached prefix serves them all.
 */
export async function writeFiles(
  models: ModelCaller,
  plan: Plan,
  context: SharedContext,
  paper: PaperTexts,
  options: GenerationOptions,
): Promise<WrittenFile[]> {
  const written: WrittenFile[] = [];
  const system = stableSystem(context);
  for (const path of plan.logic.order.filter((file) => file.endsWith('.py'))) {
    const logic = plan.logic.fileLogic.find((file) => file.path === path)?.logic ?? '';
    const view = earlierView(plan, path, logic, written, options.earlierBudgetChars);
    const prompt = loadPrompt('repo-write', {
      path,
      logic: logic.trim() || '(the design gives no logic for it)',
      paper: paperForFile(plan, path, paper),
      earlier: view.text,
      experiments: path === plan.logic.entryPoint ? `\n${experimentsSection(plan)}\n` : '',
      environment: options.environment,
    });
    let analysis = '';
    const result = await askForFile(models, system, prompt, path, `write ${path}`, {
      ...options,
      onAnswer: (text) => {
        analysis = splitWrittenFile(text)?.analysis ?? '';
      },
    });
    const file = { path, content: result.value, analysis };
    written.push(file);
    options.onFile?.(file, view);
  }
  return written;
}

/** The earlier files a file's request shows: those it imports (and theirs), tested files whole. */
function earlierView(
  plan: Plan,
  path: string,
  logic: string,
  written: readonly GeneratedFile[],
  budgetChars: number,
): EarlierFilesView {
  const keepWhole = isTestFile(path)
    ? testedFiles(
        path,
        logic,
        written.map((file) => file.path),
      )
    : [];
  // Only the files it imports (and what they import): the rest is not its interface.
  const direct = dependenciesOf(plan, path, logic);
  const shown =
    direct === undefined
      ? written
      : written.filter((file) =>
          [...dependencyClosure(plan, path, direct), ...keepWhole].includes(file.path),
        );
  if (direct !== undefined && shown.length === 0)
    return { text: 'It imports no other file of the repository.', asInterface: [] };
  return earlierFilesView(
    [...shown],
    budgetChars,
    new Set(keepWhole),
    direct === undefined
      ? undefined
      : 'The files it imports from, and theirs (import from them by these names):',
  );
}

/** Asks for one whole file until it holds Python that compiles and leaves nothing unimplemented. */
async function askForFile(
  models: ModelCaller,
  system: string,
  prompt: string,
  path: string,
  label: string,
  options: { interpreter: string; maxAttempts?: number; onAnswer?: (text: string) => void },
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
      options.onAnswer?.(text);
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
 * in it, seeing every file of the repository (the others in full while they fit) and the
 * paper's sections the design names for it.
 */
export async function rewriteFile(
  models: ModelCaller,
  context: SharedContext,
  files: GeneratedFile[],
  target: { path: string; failed: string; paper: string },
  options: { interpreter: string; earlierBudgetChars: number; maxAttempts?: number },
): Promise<GeneratedFile> {
  const { path } = target;
  // The file being rewritten goes last and stays whole: the answer starts from its text.
  const ordered = [
    ...files.filter((file) => file.path !== path),
    ...files.filter((file) => file.path === path),
  ];
  const view = earlierFilesView(ordered, options.earlierBudgetChars, new Set([path]));
  const prompt = loadPrompt('repo-selfcheck-fix', {
    earlier: view.text,
    path,
    failed: target.failed,
    paper: target.paper,
  });
  const system = stableSystem(context);
  const result = await askForFile(models, system, prompt, path, `self-check fix ${path}`, options);
  return { path, content: result.value };
}
