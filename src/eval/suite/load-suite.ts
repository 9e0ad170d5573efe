import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { parseModelSpec } from '../../llm/model-spec.js';
import { seedList } from '../../modes/seeds-setting.js';
import { checkRunSelection } from '../../explore/experiments/select-ideas.js';
import {
  itemStrategies,
  type JudgeSettings,
  paperStrategy,
  type RoleSpecs,
  type Suite,
  type SuiteItem,
  type SuiteModel,
} from './suite.js';
import { SuiteError } from './suite-error.js';
import { defaultJudgeSamples, defaultJudgeTemperature } from '../judging/judge-score.js';
import { loadRubric } from '../judging/rubric.js';
import { suiteFromFolder } from './suite-folder.js';
import { exploreItemSchema, paperItemSchema, suiteSchema, taskItemSchema } from './suite-schema.js';

/** `items[1].task` from zod's path. */
export function keyPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else text += text === '' ? String(part) : `.${String(part)}`;
  }
  return text === '' ? '(top level)' : text;
}

function fail(file: string, path: readonly PropertyKey[], message: string): never {
  throw new SuiteError(`${file}: ${keyPath(path)}: ${message}`);
}

function check<T>(file: string, prefix: PropertyKey[], schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue === undefined) fail(file, prefix, 'invalid');
  const message =
    issue.code === 'unrecognized_keys'
      ? `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => `"${key}"`).join(', ')}`
      : issue.message;
  return fail(file, [...prefix, ...issue.path], message);
}

function readDocument(file: string): unknown {
  if (!existsSync(file)) throw new SuiteError(`Suite not found: ${file}: check the path`);
  const text = readFileSync(file, 'utf8');
  const extension = extname(file).toLowerCase();
  try {
    // YAML is a superset of JSON, but JSON's own parser gives JSON files JSON's messages.
    return extension === '.json' ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new SuiteError(
      `${file} is not valid ${extension === '.json' ? 'JSON' : 'YAML'}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** replay: and exchange: name files and folders, found from the suite's folder. */
function resolveSpec(spec: string, suiteDir: string, where: string): string {
  const parsed = parseModelSpec(spec, where);
  if (parsed.provider !== 'replay' && parsed.provider !== 'exchange') return spec;
  return isAbsolute(parsed.model) ? spec : `${parsed.provider}:${resolve(suiteDir, parsed.model)}`;
}

const fill = (template: string, item: string, strategy: string, trial: number): string =>
  template
    .replaceAll('{item}', item)
    .replaceAll('{strategy}', strategy)
    .replaceAll('{trial}', String(trial));

/** An explore: item, every path checked the way `codify explore` checks its flags. */
function exploreItem(
  file: string,
  suiteDir: string,
  where: PropertyKey[],
  entry: Record<string, unknown>,
): SuiteItem {
  const item = check(file, where, exploreItemSchema, entry);
  const listed = typeof item.explore === 'string' ? [item.explore] : item.explore;
  const papers = listed.map((paper, index) => {
    const path = resolve(suiteDir, paper);
    const key = typeof item.explore === 'string' ? ['explore'] : ['explore', index];
    if (!existsSync(path)) fail(file, [...where, ...key], `no paper at ${path}`);
    return path;
  });
  const optionalFile = (key: 'notes' | 'related', value: string | undefined) => {
    if (value === undefined) return undefined;
    const path = resolve(suiteDir, value);
    if (!existsSync(path)) fail(file, [...where, key], `nothing at ${path}: check the path`);
    return path;
  };
  const notes = optionalFile('notes', item.notes);
  const related = optionalFile('related', item.related);
  if ((item.run === undefined) !== (item.code === undefined)) {
    fail(
      file,
      [...where, item.run === undefined ? 'run' : 'code'],
      'experiments need both run: (top:K, K, or idea ids such as I1,I3) and code: (the prototype code folder)',
    );
  }
  for (const key of ['max_steps', 'max_seeds'] as const) {
    if (item[key] !== undefined && item.run === undefined) {
      fail(file, [...where, key], `${key}: is for experiments: set run: and code: too`);
    }
  }
  let experiments: Extract<SuiteItem, { kind: 'explore' }>['experiments'];
  if (item.run !== undefined && item.code !== undefined) {
    const select = String(item.run);
    const problem = checkRunSelection(select);
    if (problem !== undefined) fail(file, [...where, 'run'], problem.replace(/^--run /, ''));
    const codeDir = resolve(suiteDir, item.code);
    if (!existsSync(codeDir) || !statSync(codeDir).isDirectory()) {
      fail(
        file,
        [...where, 'code'],
        `no folder at ${codeDir}: give the prototype code (a folder with starter_code.py, or an MLAgentBench folder)`,
      );
    }
    experiments = {
      select,
      codeDir,
      ...(item.max_steps === undefined ? {} : { maxSteps: item.max_steps }),
      ...(item.max_seeds === undefined ? {} : { maxSeeds: item.max_seeds }),
    };
  }
  const first = papers[0] ?? '';
  const stem = basename(first, extname(first));
  return {
    kind: 'explore',
    name: item.name ?? (['paper', 'main'].includes(stem) ? basename(dirname(first)) : stem),
    papers,
    ...(notes === undefined ? {} : { notes }),
    ...(related === undefined ? {} : { related }),
    ideas: item.ideas,
    reviewers: item.reviewers,
    refineRounds: item.refine_rounds,
    budgetMinutes: item.budget_minutes,
    gpu: item.gpu,
    ...(experiments === undefined ? {} : { experiments }),
    margin: item.margin,
  };
}

type RawSuite = z.infer<typeof suiteSchema>;
type RawModel = RawSuite['models'][number];

/**
 * Reads a suite file (YAML, or JSON by its extension; a folder is read by suiteFromFolder) and checks everything a run would
 * trip over later: the schema, unique names, that every task, paper and rubric exists, and
 * that every model has a valid spec for every run it takes part in. Errors name the file
 * and the key path (e.g. `suite.yaml: items[1].task: ...`).
 */
export function loadSuite(path: string): Suite {
  const file = resolve(path);
  if (existsSync(file) && statSync(file).isDirectory()) return suiteFromFolder(file);
  const suiteDir = dirname(file);
  const raw = check(file, [], suiteSchema, readDocument(file));
  const items: SuiteItem[] = raw.items.map((entry, index): SuiteItem => {
    const where: PropertyKey[] = ['items', index];
    const kinds = ['task', 'paper', 'explore'].filter((key) => key in entry);
    if (kinds.length > 1) {
      fail(file, where, `give one of task:, paper: or explore:, not ${kinds.join(': and ')}:`);
    }
    if ('explore' in entry) return exploreItem(file, suiteDir, where, entry);
    if ('task' in entry) return taskItem(file, suiteDir, where, entry, raw);
    if ('paper' in entry) return paperItem(file, suiteDir, where, entry);
    return fail(
      file,
      where,
      'give task: (a task folder), paper: (a paper file) or explore: (papers to explore for ideas)',
    );
  });
  checkUniqueNames(file, items);
  const modelNames = new Set<string>();
  const models = raw.models.map((entry, index): SuiteModel => {
    const where: PropertyKey[] = ['models', index];
    if (modelNames.has(entry.name)) fail(file, [...where, 'name'], `"${entry.name}" is used twice`);
    modelNames.add(entry.name);
    return suiteModel(file, suiteDir, where, entry, items);
  });
  checkRunKeys(file, raw, items);
  let judgeModel: string | undefined;
  if (raw.judge?.model !== undefined) {
    try {
      judgeModel = resolveSpec(raw.judge.model, suiteDir, 'judge.model');
    } catch (error) {
      fail(file, ['judge', 'model'], error instanceof Error ? error.message : String(error));
    }
  }
  return {
    file,
    name: raw.name ?? basename(file, extname(file)),
    items,
    models,
    ...suiteSettings(raw, suiteDir, judgeModel),
  };
}

function taskItem(
  file: string,
  suiteDir: string,
  where: PropertyKey[],
  entry: unknown,
  raw: RawSuite,
): SuiteItem {
  const item = check(file, where, taskItemSchema, entry);
  const seeds = item.seeds ?? raw.seeds;
  const folder = resolve(suiteDir, item.task);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    fail(file, [...where, 'task'], `no task folder at ${folder}`);
  }
  return {
    kind: 'task',
    name: item.name ?? basename(folder),
    path: folder,
    strategies: item.strategies ?? raw.strategies,
    seeds: seeds === undefined ? [] : seedList(seeds),
    ...(item.human_minutes === undefined ? {} : { humanMinutes: item.human_minutes }),
  };
}

function paperItem(
  file: string,
  suiteDir: string,
  where: PropertyKey[],
  entry: unknown,
): SuiteItem {
  const item = check(file, where, paperItemSchema, entry);
  const paper = resolve(suiteDir, item.paper);
  if (!existsSync(paper)) fail(file, [...where, 'paper'], `no paper at ${paper}`);
  let rubric: string | undefined;
  if (item.rubric !== undefined) {
    rubric = resolve(suiteDir, item.rubric);
    if (!existsSync(rubric)) fail(file, [...where, 'rubric'], `no rubric at ${rubric}`);
    // A malformed tree is reported now, naming the rubric file and the node.
    loadRubric(rubric);
  }
  let reference: string | undefined;
  if (item.reference !== undefined) {
    reference = resolve(suiteDir, item.reference);
    if (!existsSync(reference) || !statSync(reference).isDirectory()) {
      fail(file, [...where, 'reference'], `no reference repository folder at ${reference}`);
    }
  }
  let addendum: string | undefined;
  if (item.addendum !== undefined) {
    addendum = resolve(suiteDir, item.addendum);
    if (!existsSync(addendum)) fail(file, [...where, 'addendum'], `no addendum at ${addendum}`);
  }
  // paper.md in a folder named after the paper: the folder's name reads better.
  const stem = basename(paper, extname(paper));
  const fallback = ['paper', 'main'].includes(stem) ? basename(dirname(paper)) : stem;
  return {
    kind: 'paper',
    name: item.name ?? fallback,
    path: paper,
    ...(rubric === undefined ? {} : { rubric }),
    ...(reference === undefined ? {} : { reference }),
    ...(addendum === undefined ? {} : { addendum }),
  };
}

/** Item names are the runs' keys: two items may not share one. */
function checkUniqueNames(file: string, items: SuiteItem[]): void {
  const seen = new Map<string, number>();
  items.forEach((item, index) => {
    const earlier = seen.get(item.name);
    if (earlier !== undefined) {
      fail(
        file,
        ['items', index],
        `the name "${item.name}" is also items[${earlier}]'s: set name: to tell them apart`,
      );
    }
    seen.set(item.name, index);
  });
}

/** A model of the suite: its specs per run, each run it takes part in checked now, not mid-evaluation. */
function suiteModel(
  file: string,
  suiteDir: string,
  where: PropertyKey[],
  entry: RawModel,
  items: SuiteItem[],
): SuiteModel {
  const specsFor = (item: string, strategy: string, trial: number): RoleSpecs =>
    roleSpecs(file, suiteDir, where, entry, { item, strategy, trial });
  for (const item of items) {
    const strategies = itemStrategies(item);
    for (const strategy of strategies) {
      const specs = specsFor(item.name, strategy, 1);
      const missing = (['planner', 'expert', 'worker', 'summarizer'] as const).filter(
        (role) => specs[role] === undefined,
      );
      if (missing.length > 0) {
        fail(
          file,
          where,
          `no model for ${item.name}/${strategy} (${missing.join(', ')}): set model:, or runs: {"${item.name}/${strategy}": SPEC}`,
        );
      }
    }
  }
  return { name: entry.name, specsFor };
}

/** The specs of every role for one run: the model's (or the run's own), then its roles'. */
function roleSpecs(
  file: string,
  suiteDir: string,
  where: PropertyKey[],
  entry: RawModel,
  run: { item: string; strategy: string; trial: number },
): RoleSpecs {
  const { item, strategy, trial } = run;
  const own = entry.runs?.[`${item}/${strategy}`];
  const base = own ?? entry.model;
  const specs: RoleSpecs = {};
  const spec = (text: string, key: PropertyKey[]) => {
    const filled = fill(text, item, strategy, trial);
    try {
      return resolveSpec(filled, suiteDir, `${keyPath([...where, ...key])}`);
    } catch (error) {
      return fail(file, [...where, ...key], error instanceof Error ? error.message : String(error));
    }
  };
  if (base !== undefined) {
    const text = spec(base, own === undefined ? ['model'] : ['runs', `${item}/${strategy}`]);
    specs.planner = [text];
    specs.expert = text;
    specs.worker = text;
    specs.summarizer = text;
  }
  const roles = entry.roles ?? {};
  if (roles.planner !== undefined) {
    const list = typeof roles.planner === 'string' ? [roles.planner] : roles.planner;
    specs.planner = list.map((text, level) => spec(text, ['roles', 'planner', level]));
  }
  for (const role of ['expert', 'worker', 'summarizer'] as const) {
    const text = roles[role];
    if (text !== undefined) specs[role] = spec(text, ['roles', role]);
  }
  return specs;
}

/** Every key of a model's `runs:` must name a run of the suite. */
function checkRunKeys(file: string, raw: RawSuite, items: SuiteItem[]): void {
  raw.models.forEach((entry, index) => {
    for (const key of Object.keys(entry.runs ?? {})) {
      const [item, strategy] = key.split('/');
      const known = items.find((candidate) => candidate.name === item);
      const strategies: string[] = known === undefined ? [] : itemStrategies(known);
      if (known === undefined || strategy === undefined || !strategies.includes(strategy)) {
        fail(
          file,
          ['models', index, 'runs', key],
          `names no run of this suite; keys are ITEM/STRATEGY, e.g. ${items[0]?.name ?? 'item'}/${items[0] === undefined ? paperStrategy : (itemStrategies(items[0])[0] ?? paperStrategy)}`,
        );
      }
    }
  });
}

/** The suite's judge: section, PaperCoder's protocol where it says nothing. */
function judgeSettings(raw: RawSuite['judge'], model: string | undefined): JudgeSettings {
  return {
    enabled: raw !== undefined,
    samples: raw?.samples ?? defaultJudgeSamples,
    temperature: raw?.temperature ?? defaultJudgeTemperature,
    includeDocs: raw?.include_docs ?? false,
    ...(model === undefined ? {} : { model }),
    ...(raw?.context_tokens === undefined ? {} : { contextTokens: raw.context_tokens }),
    ...(raw?.part_chars === undefined ? {} : { partChars: raw.part_chars }),
    ...(raw?.paper_chars === undefined ? {} : { paperChars: raw.paper_chars }),
    ...(raw?.reference_chars === undefined ? {} : { referenceChars: raw.reference_chars }),
  };
}

/** The suite's settings for every run: strategies, trials, budgets, paper, judge, sandbox, python. */
function suiteSettings(
  raw: RawSuite,
  suiteDir: string,
  judgeModel: string | undefined,
): Omit<Suite, 'file' | 'name' | 'items' | 'models'> {
  return {
    strategies: raw.strategies,
    trials: raw.trials,
    budgets: {
      ...(raw.budgets.max_steps === undefined ? {} : { maxSteps: raw.budgets.max_steps }),
      ...(raw.budgets.max_minutes === undefined ? {} : { maxMinutes: raw.budgets.max_minutes }),
      ...(raw.budgets.max_tokens === undefined ? {} : { maxTokens: raw.budgets.max_tokens }),
      ...(raw.budgets.max_cost === undefined ? {} : { maxCostUsd: raw.budgets.max_cost }),
    },
    paper: {
      ...(raw.paper.repair_steps === undefined ? {} : { repairSteps: raw.paper.repair_steps }),
      ...(raw.paper.smoke_timeout_s === undefined
        ? {}
        : { smokeTimeoutS: raw.paper.smoke_timeout_s }),
      ...(raw.paper.self_refine === undefined ? {} : { selfRefine: raw.paper.self_refine }),
    },
    starterTrials: raw.starter_trials,
    judge: judgeSettings(raw.judge, judgeModel),
    sandbox: raw.sandbox,
    ...(raw.python === undefined ? {} : { python: resolve(suiteDir, raw.python) }),
  };
}
