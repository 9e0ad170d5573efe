export { type SourceFile, renderFiles } from '../../grading/source-file.js';
export { fitFiles } from '../../grading/fit-files.js';
export { candidateFiles, relevantFiles } from '../../grading/relevant-files.js';
