/**
 * What can be wrong with a page address, as typed facts (DESIGN: prose never crosses a module
 * boundary). The URL parser, the lesson opener and the loader report these; the app words them in
 * the reader's language (app/urlProblemText.ts). Each names the parameter and the value it
 * refused, so the sentence can say both.
 */

export type UrlProblem =
  /** Not an id: lowercase letters, digits and "-" (scenario, lesson, variant). */
  | { problem: 'not-id'; param: 'scenario' | 'lesson' | 'variant'; value: string }
  /** A switch that is neither 1 nor 0 (nor true/false). */
  | { problem: 'not-flag'; param: 'autoplay' | 'present' | 'lessons'; value: string }
  /** Not one of the parameter's values. */
  | { problem: 'not-choice'; param: 'lang' | 'mode' | 'backend'; value: string; choices: readonly string[] }
  | { problem: 'not-speed'; param: 'speed'; value: string }
  | { problem: 'speed-range'; param: 'speed'; value: string; min: number; max: number }
  | { problem: 'not-time'; param: 'at'; value: string }
  /** `step=` is not `<act>.<n>`; `example` is a step that would be. */
  | { problem: 'not-step'; param: 'step'; value: string; example: string }
  | { problem: 'no-act'; param: 'step'; value: string; act: string; acts: readonly string[] }
  | { problem: 'no-step'; param: 'step'; value: string; act: string; step: string; steps: readonly string[] }
  /** A well-formed id that names nothing there: `known` are the ids that would. */
  | { problem: 'unknown-builtin'; param: 'scenario'; value: string; known: readonly string[] }
  /** `?lesson=` names no built-in at all: `known` are the lessons. */
  | { problem: 'unknown-lesson'; param: 'lesson'; value: string; known: readonly string[] }
  | { problem: 'unknown-variant'; param: 'variant'; value: string; known: readonly string[] }
  /** `step=` or `mode=guided` without a lesson to apply to; `lesson`: the opened built-in, where it is one (opened with scenario=). */
  | { problem: 'lesson-only'; param: 'step' | 'mode'; value: string; lesson?: string }
  /** A parameter the page does not read, spelt close to one it does (`hint`). */
  | { problem: 'unknown-param'; param: string; value: string; hint: string }
  /**
   * A scenario's setting (`workers`), which the address does not set: `setting` is its name in a
   * scenario file; `onPage`, whether the page's form changes it too.
   */
  | { problem: 'scenario-setting'; param: string; value: string; setting: string; onPage: boolean }
  | HashProblem;

/** The `#scenario=` value cannot be decoded (before any JSON or schema check). */
export type HashProblem =
  | { problem: 'hash-truncated' }
  /** `char` at 1-based `position` is not base64. */
  | { problem: 'hash-bad-char'; char: string; position: number }
  | { problem: 'hash-not-utf8' }
  | { problem: 'hash-damaged' };
