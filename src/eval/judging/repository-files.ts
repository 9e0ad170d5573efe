export { isCodeFile, isPlanningDocument, repositoryFiles } from '../../grading/repository-files.js';
