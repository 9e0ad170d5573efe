// Rubric grading lives in src/grading (a service both `codify eval` and paper mode's
// self-check import); this is the name eval and paper mode have always called.
export {
  type GradeRubricOptions,
  type GradeRubricResult,
  gradeRubric,
} from '../../grading/grade-rubric.js';
