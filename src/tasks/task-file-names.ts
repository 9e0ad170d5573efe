/** The ResearchCodeAgent file names of a codify task folder. */
export const taskFileNames = {
  methodology: 'methodology_description.txt',
  starterCode: 'starter_code.py',
  dataset: 'dataset_description.txt',
  pseudocode: 'pseudocode.txt',
  starterPerformance: 'starter_code_performance.txt',
  supplementary: 'supplementary_methodology.txt',
  problemStatement: 'problem_statement.txt',
  settings: 'task.json',
} as const;

/** Reference code for sub-part i of the method: subpart_<i>_<j>.py. */
export const subpartPattern = /^subpart_(\d+)_(\d+)\.py$/;

/** MLAgentBench layout: the code in env/, the problem in scripts/research_problem.txt. */
export const mlAgentBenchNames = {
  environment: 'env',
  researchProblem: 'scripts/research_problem.txt',
  dataset: 'data_description.txt',
  entrypoint: 'train.py',
} as const;

export const defaultOutput = 'methodology_implementation.py';

/** Orders subpart files by part, then piece, as numbers (subpart_2_1.py before subpart_10_1.py). */
export function compareSubparts(left: string, right: string): number {
  const [, leftPart = '0', leftPiece = '0'] = subpartPattern.exec(left) ?? [];
  const [, rightPart = '0', rightPiece = '0'] = subpartPattern.exec(right) ?? [];
  return Number(leftPart) - Number(rightPart) || Number(leftPiece) - Number(rightPiece);
}
