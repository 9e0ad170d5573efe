/** A requirement pip could not meet without replacing a package the interpreter provides. */
export interface PipConflict {
  requirement: string;
  /** pip's own account: which package asks for what, against which pinned version. */
  reason: string;
}

/** Whether pip failed on the resolution (a version conflict), not on the network or a build. */
export function isResolutionConflict(output: string): boolean {
  return /ResolutionImpossible|conflicting dependencies|The conflict is caused by/.test(output);
}

/**
 * The lines of pip's output that name the conflict ("The conflict is caused by:" and the
 * requests under it), joined with "; ", or its ERROR line when it gave no such block.
 */
export function conflictReason(output: string): string {
  const lines = output.split('\n');
  const start = lines.findIndex((line) => line.includes('The conflict is caused by'));
  if (start >= 0) {
    const causes: string[] = [];
    for (const line of lines.slice(start + 1)) {
      if (line.trim() === '') {
        if (causes.length > 0) break;
        continue;
      }
      if (!/^\s/.test(line)) break;
      causes.push(line.trim());
    }
    if (causes.length > 0) return causes.join('; ');
  }
  const error = lines.find((line) => line.includes('Cannot install'));
  return (
    error ??
    lines.find((line) => line.startsWith('ERROR')) ??
    'pip found no compatible version'
  )
    .replace(/^ERROR:\s*/, '')
    .trim();
}

/** The conflict in a sentence, for the install stage, the report and the repair's observation. */
export function describeConflict(conflict: PipConflict, interpreter: string): string {
  return `${conflict.requirement} was not installed: no version of it fits the packages ${interpreter} provides, which stay as they are (${conflict.reason})`;
}
