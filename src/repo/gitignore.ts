/**
 * What a run of the code writes and a researcher never commits: byte code and the tracer's
 * per-line counts, environments, caches, and the outputs, logs and checkpoints of training.
 */
export const ignoredByDefault = [
  '__pycache__/',
  '*.py[cod]',
  '*.cover',
  '.venv/',
  'venv/',
  '.cache/',
  '.pytest_cache/',
  '.ipynb_checkpoints/',
  '*.egg-info/',
  'outputs/',
  'runs/',
  'results/',
  'logs/',
  'checkpoints/',
  'wandb/',
  'mlruns/',
  'lightning_logs/',
  '*.pt',
  '*.pth',
  '*.ckpt',
  '*.safetensors',
  '*.log',
  '.DS_Store',
];

const header = '# Outputs, caches and checkpoints (codify): runs write them, git keeps the code.';

/** `existing` (one the model wrote) with every line kept, and the default patterns it lacks after it. */
export function mergeGitignore(existing: string | undefined): string {
  const kept =
    existing === undefined || existing.trim() === '' ? [] : existing.trimEnd().split('\n');
  const present = new Set(kept.map((line) => line.trim()));
  const added = ignoredByDefault.filter((pattern) => !present.has(pattern));
  if (added.length === 0) return `${kept.join('\n')}\n`;
  return `${[...kept, ...(kept.length > 0 ? [''] : []), header, ...added].join('\n')}\n`;
}
