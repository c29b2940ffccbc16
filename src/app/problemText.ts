/**
 * The wording of what a check refused — a scenario's problems, an action's, a knob's value, a page
 * address's — and of the engine's refusals: in the reader's language, loaded when there is one to
 * say (problemTextLoad.ts; the page's first load carries none of it, issue 9).
 */
export { actionProblemText, problemLines, scenarioProblemText } from './scenarioProblemText';
export { actionRefusalText } from './actionRefusalText';
export { knobProblemText } from './knobProblemText';
export { urlProblemText } from './urlProblemText';
